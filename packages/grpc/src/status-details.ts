import { BinaryReader, BinaryWriter, WireType } from '@bufbuild/protobuf/wire';

/**
 * Binary codecs for the four small Google messages a gRPC error carries in its
 * `grpc-status-details-bin` trailer: `google.rpc.Status`, `google.protobuf.Any`,
 * `google.rpc.ErrorInfo` and `google.rpc.BadRequest`.
 *
 * Hand-written with the protobuf wire primitives instead of generated from vendored
 * googleapis protos: four messages with a handful of fields do not justify a second proto
 * tree, and the field numbers below are fixed forever by the protobuf compatibility rules.
 * Decoders skip unknown fields, like any protobuf parser, so newer peers stay readable.
 */

/** `type_url` of a packed ErrorInfo. */
export const ERROR_INFO_TYPE_URL = 'type.googleapis.com/google.rpc.ErrorInfo';
/** `type_url` of a packed BadRequest. */
export const BAD_REQUEST_TYPE_URL = 'type.googleapis.com/google.rpc.BadRequest';

/** `google.protobuf.Any`: {1 type_url string, 2 value bytes}. */
export interface AnyMessage {
  readonly typeUrl: string;
  readonly value: Uint8Array;
}

/** `google.rpc.Status`: {1 code int32, 2 message string, 3 details repeated Any}. */
export interface RpcStatus {
  readonly code: number;
  readonly message: string;
  readonly details: readonly AnyMessage[];
}

/** `google.rpc.ErrorInfo`: {1 reason, 2 domain, 3 metadata map<string, string>}. */
export interface ErrorInfo {
  readonly reason: string;
  readonly domain: string;
  readonly metadata: Readonly<Record<string, string>>;
}

/** `google.rpc.BadRequest.FieldViolation`: {1 field, 2 description}. */
export interface BadRequestFieldViolation {
  readonly field: string;
  readonly description: string;
}

/** `google.rpc.BadRequest`: {1 field_violations repeated FieldViolation}. */
export interface BadRequest {
  readonly fieldViolations: readonly BadRequestFieldViolation[];
}

// ------------------------------------------------------------------ encoders

/** Writes a string field unless it holds the proto3 default (empty). */
function putString(w: BinaryWriter, fieldNo: number, value: string): void {
  if (value !== '') w.tag(fieldNo, WireType.LengthDelimited).string(value);
}

/** Encodes a `google.protobuf.Any`. */
export function encodeAny(any: AnyMessage): Uint8Array {
  const w = new BinaryWriter();
  putString(w, 1, any.typeUrl);
  if (any.value.length > 0) w.tag(2, WireType.LengthDelimited).bytes(any.value);
  return w.finish();
}

/** Encodes a `google.rpc.Status`. */
export function encodeStatus(status: RpcStatus): Uint8Array {
  const w = new BinaryWriter();
  if (status.code !== 0) w.tag(1, WireType.Varint).int32(status.code);
  putString(w, 2, status.message);
  for (const detail of status.details) w.tag(3, WireType.LengthDelimited).bytes(encodeAny(detail));
  return w.finish();
}

/** Encodes a `google.rpc.ErrorInfo` (map entries in key order, so output is deterministic). */
export function encodeErrorInfo(info: ErrorInfo): Uint8Array {
  const w = new BinaryWriter();
  putString(w, 1, info.reason);
  putString(w, 2, info.domain);
  for (const key of Object.keys(info.metadata).sort()) {
    const entry = new BinaryWriter();
    putString(entry, 1, key);
    putString(entry, 2, info.metadata[key]!);
    w.tag(3, WireType.LengthDelimited).bytes(entry.finish());
  }
  return w.finish();
}

/** Encodes a `google.rpc.BadRequest`. */
export function encodeBadRequest(badRequest: BadRequest): Uint8Array {
  const w = new BinaryWriter();
  for (const v of badRequest.fieldViolations) {
    const fv = new BinaryWriter();
    putString(fv, 1, v.field);
    putString(fv, 2, v.description);
    w.tag(1, WireType.LengthDelimited).bytes(fv.finish());
  }
  return w.finish();
}

// ------------------------------------------------------------------ decoders

/**
 * Reads every field of one message, handing known ones to `onField` and skipping the rest.
 * `onField` returns false for a field it does not know (it is then skipped).
 */
function readFields(bytes: Uint8Array, onField: (fieldNo: number, wireType: WireType, r: BinaryReader) => boolean): void {
  const r = new BinaryReader(bytes);
  while (r.pos < r.len) {
    const [fieldNo, wireType] = r.tag();
    if (!onField(fieldNo, wireType, r)) r.skip(wireType, fieldNo);
  }
}

/** Decodes a `google.protobuf.Any`. Throws on malformed bytes. */
export function decodeAny(bytes: Uint8Array): AnyMessage {
  let typeUrl = '';
  let value: Uint8Array = new Uint8Array(0);
  readFields(bytes, (no, wt, r) => {
    if (no === 1 && wt === WireType.LengthDelimited) typeUrl = r.string();
    else if (no === 2 && wt === WireType.LengthDelimited) value = r.bytes();
    else return false;
    return true;
  });
  return { typeUrl, value };
}

/** Decodes a `google.rpc.Status`. Throws on malformed bytes. */
export function decodeStatus(bytes: Uint8Array): RpcStatus {
  let code = 0;
  let message = '';
  const details: AnyMessage[] = [];
  readFields(bytes, (no, wt, r) => {
    if (no === 1 && wt === WireType.Varint) code = r.int32();
    else if (no === 2 && wt === WireType.LengthDelimited) message = r.string();
    else if (no === 3 && wt === WireType.LengthDelimited) details.push(decodeAny(r.bytes()));
    else return false;
    return true;
  });
  return { code, message, details };
}

/** Decodes a `google.rpc.ErrorInfo`. Throws on malformed bytes. */
export function decodeErrorInfo(bytes: Uint8Array): ErrorInfo {
  let reason = '';
  let domain = '';
  const metadata: Record<string, string> = {};
  readFields(bytes, (no, wt, r) => {
    if (no === 1 && wt === WireType.LengthDelimited) reason = r.string();
    else if (no === 2 && wt === WireType.LengthDelimited) domain = r.string();
    else if (no === 3 && wt === WireType.LengthDelimited) {
      let key = '';
      let value = '';
      readFields(r.bytes(), (eno, ewt, er) => {
        if (eno === 1 && ewt === WireType.LengthDelimited) key = er.string();
        else if (eno === 2 && ewt === WireType.LengthDelimited) value = er.string();
        else return false;
        return true;
      });
      metadata[key] = value;
    } else return false;
    return true;
  });
  return { reason, domain, metadata };
}

/** Decodes a `google.rpc.BadRequest`. Throws on malformed bytes. */
export function decodeBadRequest(bytes: Uint8Array): BadRequest {
  const fieldViolations: BadRequestFieldViolation[] = [];
  readFields(bytes, (no, wt, r) => {
    if (no !== 1 || wt !== WireType.LengthDelimited) return false;
    let field = '';
    let description = '';
    readFields(r.bytes(), (fno, fwt, fr) => {
      if (fno === 1 && fwt === WireType.LengthDelimited) field = fr.string();
      else if (fno === 2 && fwt === WireType.LengthDelimited) description = fr.string();
      else return false;
      return true;
    });
    fieldViolations.push({ field, description });
    return true;
  });
  return { fieldViolations };
}

/** Strips the host part of a type URL (`type.googleapis.com/google.rpc.ErrorInfo` → `google.rpc.ErrorInfo`). */
export function typeNameOf(typeUrl: string): string {
  return typeUrl.slice(typeUrl.lastIndexOf('/') + 1);
}
