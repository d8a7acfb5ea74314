/**
 * Shape of the generated ProtoJSON schema table (src/gen/proto-schema.ts).
 *
 * The table is emitted from proto/ by scripts/generate.mjs so that the strict validator knows
 * every message's fields, JSON names, types and oneofs without a runtime reflection library
 * (ts-proto's generated code carries no descriptors). Kept minimal on purpose: only what the
 * ProtoJSON rules need.
 */

/** Protobuf scalar types, by their .proto spelling. */
export type ScalarKind =
  | 'double'
  | 'float'
  | 'int64'
  | 'uint64'
  | 'int32'
  | 'fixed64'
  | 'fixed32'
  | 'bool'
  | 'string'
  | 'bytes'
  | 'uint32'
  | 'sfixed32'
  | 'sfixed64'
  | 'sint32'
  | 'sint64';

/** Type of a single value: a scalar, an enum or a message (both named by full proto name). */
export type ValueTypeSchema = { kind: ScalarKind } | { kind: 'enum' | 'message'; type: string };

/** One field of a message, as the validator needs it. */
export type FieldSchema = {
  /** Original proto field name (snake_case); accepted on input. */
  name: string;
  /** ProtoJSON name (lowerCamelCase); accepted on input and emitted on output. */
  json: string;
  /** Field number (documentation / wire-tag tests only). */
  no: number;
  /** Name of the real oneof this field belongs to (proto3 `optional` is not a oneof here). */
  oneof?: string;
  /** proto3 `optional` (explicit presence). */
  optional?: true;
} & ((ValueTypeSchema & { repeated?: true }) | { kind: 'map'; key: ScalarKind; value: ValueTypeSchema });

/** The whole table: messages by full name (fields in declaration order) and enums by full name. */
export interface ProtoSchema {
  messages: Record<string, readonly FieldSchema[]>;
  enums: Record<string, Record<string, number>>;
}
