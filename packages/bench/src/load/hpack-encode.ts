/**
 * The smallest HPACK encoder a gRPC load client needs (RFC 7541): static-table indexed
 * fields and literals without indexing, no Huffman coding, no dynamic table. Header blocks
 * are built once per call shape and reused for every request.
 */

/** Static-table indexes used below (RFC 7541 Appendix A). */
const STATIC = { authority: 1, methodPost: 3, path: 4, schemeHttp: 6, contentType: 31 } as const;

/** Encodes an HPACK integer with an N-bit prefix, OR-ing `flags` into the first byte. */
export function encodeInteger(value: number, prefixBits: number, flags = 0): number[] {
  const max = (1 << prefixBits) - 1;
  if (value < max) return [flags | value];
  const out = [flags | max];
  let rest = value - max;
  while (rest >= 128) {
    out.push((rest % 128) + 128);
    rest = Math.floor(rest / 128);
  }
  out.push(rest);
  return out;
}

function stringLiteral(text: string): number[] {
  const bytes = [...Buffer.from(text, 'latin1')];
  return [...encodeInteger(bytes.length, 7), ...bytes];
}

/** Literal header field without indexing, name from the static table. */
function literalIndexedName(index: number, value: string): number[] {
  return [...encodeInteger(index, 4), ...stringLiteral(value)];
}

/** Literal header field without indexing, new name (must be lower case). */
function literalNewName(name: string, value: string): number[] {
  return [0x00, ...stringLiteral(name), ...stringLiteral(value)];
}

/**
 * The HEADERS block of a gRPC request: POST, http, `path`, `authority`,
 * `content-type: application/grpc`, `te: trailers`, then `metadata` (lower-case keys).
 */
export function grpcRequestHeaderBlock(path: string, authority: string, metadata: Readonly<Record<string, string>> = {}): Buffer {
  const bytes: number[] = [
    0x80 | STATIC.methodPost,
    0x80 | STATIC.schemeHttp,
    ...literalIndexedName(STATIC.path, path),
    ...literalIndexedName(STATIC.authority, authority),
    ...literalIndexedName(STATIC.contentType, 'application/grpc'),
    ...literalNewName('te', 'trailers'),
  ];
  for (const [key, value] of Object.entries(metadata)) bytes.push(...literalNewName(key.toLowerCase(), value));
  return Buffer.from(bytes);
}
