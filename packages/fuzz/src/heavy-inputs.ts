/**
 * The resource oracle's inputs: sends that are deep, wide or large, in both protocol
 * generations, streamed and not. Where the ordinary fuzz inputs look for wrong answers, these
 * look for answers and memory that grow with the input: a store budget an estimate misses, an
 * event log that keeps megabytes per stream, an error that quotes a 3 MB field back, a decoder
 * that recurses 10,000 levels deep.
 *
 * A case is drawn as a small descriptor and turned into its JSON text only when it is sent,
 * so a long run of thousands of 3 MB inputs never holds more than one at a time.
 */
import fc from 'fast-check';

/** What makes a case heavy. */
export type HeavyShape =
  /** A data part nested `depth` levels deep, a `bytes`-long string at the bottom. */
  | 'deep-data'
  /** A part whose `kind` (v0.3) or `text` (v1.0) is an object nested `depth` levels deep. */
  | 'deep-part'
  /** `bytes` of text spread over many small parts. */
  | 'wide-parts'
  /** A message whose metadata has many keys. */
  | 'wide-metadata'
  /** One text part of `bytes` characters. */
  | 'large-text'
  /** One protocol field (`field`) of `bytes` characters. */
  | 'large-field';

/** A field a large-field case blows up; each is echoed somewhere in an answer or an error. */
export type HeavyField = 'role' | 'messageId' | 'taskId' | 'contextId' | 'kind' | 'mediaType';

/** One heavy send, as drawn (its JSON is built by {@link heavyParamsJson}). */
export interface HeavyCase {
  readonly shape: HeavyShape;
  readonly generation: '1.0' | '0.3';
  readonly streaming: boolean;
  readonly depth: number;
  readonly bytes: number;
  readonly field: HeavyField;
  /** Makes ids unique across cases. */
  readonly salt: number;
}

/** Deeper than the documented nesting limit, at it, and far beyond it. */
const DEPTHS = [5, 60, 95, 150, 10_000];
/** Sizes up to just under the default 4 MiB request limit (the JSON around them stays below it). */
const SIZES = [64 * 1024, 1024 * 1024, 3 * 1024 * 1024];
/** The largest size drawn: just under the default 4 MiB request limit. */
export const MAX_HEAVY_BYTES = 3 * 1024 * 1024;

/**
 * One case of every shape, every blown-up field and both generations, streamed and not, at
 * `bytes` (the largest drawn size by default): what a run sends first, so even a short one
 * meets each rule once, whatever the random draws after it.
 */
export function heavyCorpus(bytes: number): HeavyCase[] {
  const c = (shape: HeavyShape, generation: '1.0' | '0.3', streaming: boolean, depth: number, field: HeavyField = 'role'): HeavyCase => ({
    shape,
    generation,
    streaming,
    depth,
    bytes,
    field,
    salt: 0,
  });
  return [
    c('deep-data', '1.0', false, 60),
    c('deep-data', '0.3', true, 150),
    c('deep-part', '0.3', true, 10_000),
    c('deep-part', '1.0', false, 10_000),
    c('wide-parts', '1.0', true, 0),
    c('wide-metadata', '0.3', false, 0),
    c('large-text', '1.0', true, 0),
    c('large-text', '0.3', false, 0),
    c('large-field', '1.0', false, 0, 'role'),
    c('large-field', '0.3', true, 0, 'messageId'),
    c('large-field', '1.0', false, 0, 'taskId'),
    c('large-field', '0.3', false, 0, 'contextId'),
    c('large-field', '0.3', false, 0, 'kind'),
    c('large-field', '1.0', true, 0, 'mediaType'),
  ];
}

/** Heavy cases of every shape, generation and size up to `maxBytes` (the largest size, 3 MiB, by default). */
export function heavyCases(maxBytes = MAX_HEAVY_BYTES): fc.Arbitrary<HeavyCase> {
  const sizes = SIZES.filter((size) => size <= maxBytes);
  return fc.record({
    shape: fc.constantFrom<HeavyShape>('deep-data', 'deep-data', 'deep-part', 'wide-parts', 'wide-metadata', 'large-text', 'large-text', 'large-field'),
    generation: fc.constantFrom<'1.0' | '0.3'>('1.0', '0.3'),
    streaming: fc.boolean(),
    depth: fc.constantFrom(...DEPTHS),
    bytes: sizes.length > 0 ? fc.constantFrom(...sizes) : fc.constant(maxBytes),
    field: fc.constantFrom<HeavyField>('role', 'messageId', 'taskId', 'contextId', 'kind', 'mediaType'),
    salt: fc.nat(),
  });
}

/** `n` characters of harmless text (no demo-agent command in it, nothing to escape). */
function filler(n: number): string {
  return 'abcdefghij'.repeat(Math.ceil(n / 10)).slice(0, n);
}

/** A JSON object nested `depth` levels under `key`, built as text (no recursion, any depth). */
function nestedJson(key: string, depth: number, leafJson: string): string {
  return `${`{"${key}":`.repeat(depth)}${leafJson}${'}'.repeat(depth)}`;
}

/**
 * How a binding writes the case's generation: v1.0 ProtoJSON; v0.3 JSON-RPC objects (`kind`,
 * `user`); or the v0.3 proto's JSON (`content`, `ROLE_USER`), which v0.3 REST carries and v0.3
 * gRPC encodes.
 */
export type HeavyDialect = 'v1' | 'v03-json' | 'v03-proto';

/** The dialect a binding speaks for a case: JSON-RPC writes v0.3 as objects, REST and gRPC as proto JSON. */
export function heavyDialect(c: HeavyCase, binding: 'jsonrpc' | 'proto'): HeavyDialect {
  if (c.generation === '1.0') return 'v1';
  return binding === 'jsonrpc' ? 'v03-json' : 'v03-proto';
}

/** One text part in a dialect. */
function textPart(d: HeavyDialect, t: string): string {
  return d === 'v03-json' ? `{"kind":"text","text":"${t}"}` : `{"text":"${t}"}`;
}

/** The parts of a case's message, as JSON text, in a dialect. */
function partsJson(c: HeavyCase, d: HeavyDialect): string {
  switch (c.shape) {
    case 'deep-data': {
      const nested = nestedJson('a', c.depth, `"${filler(c.bytes)}"`);
      if (d === 'v03-json') return `[{"kind":"data","data":${nested}}]`;
      return `[${d === 'v03-proto' ? `{"data":{"data":${nested}}}` : `{"data":${nested}}`}]`;
    }
    case 'deep-part':
      return `[${d === 'v03-json' ? nestedJson('kind', c.depth, '"text"') : `{"text":${nestedJson('text', c.depth, '"x"')}}`}]`;
    case 'wide-parts': {
      const count = Math.max(1, Math.floor(c.bytes / 100));
      return `[${Array.from({ length: count }, () => textPart(d, filler(90))).join(',')}]`;
    }
    case 'large-field': {
      const big = filler(c.bytes);
      if (c.field === 'kind' && d === 'v03-json') return `[{"kind":"${big}","text":"x"}]`;
      if (c.field !== 'mediaType') return `[${textPart(d, 'hello')}]`;
      if (d === 'v03-json') return `[{"kind":"file","file":{"uri":"https://example.com/f","mimeType":"${big}"}}]`;
      if (d === 'v03-proto') return `[{"file":{"fileWithUri":"https://example.com/f","mimeType":"${big}"}}]`;
      return `[{"url":"https://example.com/f","mediaType":"${big}"}]`;
    }
    default:
      return `[${textPart(d, c.shape === 'large-text' ? filler(c.bytes) : 'hello')}]`;
  }
}

/** The case's message as JSON text, in a dialect. */
function messageJson(c: HeavyCase, d: HeavyDialect): string {
  const big = c.shape === 'large-field' ? filler(c.bytes) : undefined;
  const fields: string[] = [];
  if (d === 'v03-json') fields.push('"kind":"message"');
  fields.push(`"messageId":"${c.field === 'messageId' && big ? big : `heavy-${c.salt}`}"`);
  // A blown-up kind has no place in the proto dialects: the role carries it there.
  const bigRole = big && (c.field === 'role' || (c.field === 'kind' && d !== 'v03-json'));
  fields.push(`"role":"${bigRole ? big : d === 'v03-json' ? 'user' : 'ROLE_USER'}"`);
  fields.push(`"${d === 'v03-proto' ? 'content' : 'parts'}":${partsJson(c, d)}`);
  if (c.field === 'taskId' && big) fields.push(`"taskId":"${big}"`);
  if (c.field === 'contextId' && big) fields.push(`"contextId":"${big}"`);
  if (c.shape === 'wide-metadata') {
    const count = Math.max(1, Math.floor(c.bytes / 24));
    fields.push(`"metadata":{${Array.from({ length: count }, (_, i) => `"k${i}":${i}`).join(',')}}`);
  }
  return `{${fields.join(',')}}`;
}

/** The SendMessage / message/send params of a case as JSON text (the same for the streaming call). */
export function heavyParamsJson(c: HeavyCase, d: HeavyDialect): string {
  return `{"message":${messageJson(c, d)}}`;
}

/** The JSON-RPC method of a case: v1.0 by name, v0.3 by name. */
export function heavyMethod(c: HeavyCase): string {
  if (c.generation === '0.3') return c.streaming ? 'message/stream' : 'message/send';
  return c.streaming ? 'SendStreamingMessage' : 'SendMessage';
}

/** A case as a JSON-RPC request body. */
export function heavyJsonRpcBody(c: HeavyCase, id: number | string): string {
  return `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"${heavyMethod(c)}","params":${heavyParamsJson(c, heavyDialect(c, 'jsonrpc'))}}`;
}

/** Headers that select the case's generation (v0.3 names no version). */
export function heavyVersionHeaders(c: HeavyCase): Record<string, string> {
  return c.generation === '1.0' ? { 'a2a-version': '1.0' } : {};
}

/** A case in one line, for a finding. */
export function describeHeavyCase(c: HeavyCase): string {
  const detail = c.shape.startsWith('deep') ? `depth ${c.depth}, ` : c.shape === 'large-field' ? `${c.field}, ` : '';
  return `${c.shape} (${detail}${c.bytes} bytes, v${c.generation}, ${c.streaming ? 'streaming' : 'unary'})`;
}
