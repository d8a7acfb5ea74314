import { PROTO_SCHEMA } from './gen/proto-schema.js';
import type { FieldSchema, ProtoSchema } from './schema.js';
import { WELL_KNOWN } from './well-known-types.js';

/** The package of the A2A messages; short type names are looked up in it. */
const A2A_PACKAGE = 'lf.a2a.v1';

/**
 * Resolves a message type name: a full name (`lf.a2a.v1.Task`), a short A2A name (`Task`) or
 * one of the supported well-known types (`google.protobuf.Empty`, …), so callers can use the
 * short names everywhere. Throws for an unknown name: that is a programming error, not bad input.
 */
export function resolveMessageType(typeName: string, schema: ProtoSchema = PROTO_SCHEMA): string {
  // The bindings resolve the short name of a request type on every request: remembered (a
  // bounded set: the schema's own names).
  const known = schema === PROTO_SCHEMA ? resolvedNames.get(typeName) : undefined;
  if (known !== undefined) return known;
  const resolved = resolveIn(schema, typeName);
  if (schema === PROTO_SCHEMA) resolvedNames.set(typeName, resolved);
  return resolved;
}

const resolvedNames = new Map<string, string>();

function resolveIn(schema: ProtoSchema, typeName: string): string {
  if (schema.messages[typeName] || WELL_KNOWN.has(typeName)) return typeName;
  const qualified = `${A2A_PACKAGE}.${typeName}`;
  if (schema.messages[qualified]) return qualified;
  throw new Error(`Unknown protobuf message type "${typeName}"`);
}

/**
 * The fields of message `typeName` (a full name from {@link resolveMessageType}).
 * Throws for a name the schema lacks: the generated schema names every message a field
 * refers to, so a miss is a bug in the schema, not bad input.
 */
export function messageFields(typeName: string): readonly FieldSchema[] {
  const fields = PROTO_SCHEMA.messages[typeName];
  if (!fields) throw new Error(`The protobuf schema has no message "${typeName}"`);
  return fields;
}

const fieldIndexes = new Map<string, Map<string, FieldSchema>>();

/**
 * Finds the field of message `typeName` that a JSON key names (JSON name or proto name).
 * Internal (not re-exported from the package root); shared by validate.ts and parse.ts.
 */
export function fieldByKey(typeName: string, key: string): FieldSchema | undefined {
  let index = fieldIndexes.get(typeName);
  if (!index) {
    index = new Map();
    for (const f of PROTO_SCHEMA.messages[typeName] ?? []) {
      index.set(f.name, f);
      index.set(f.json, f);
    }
    fieldIndexes.set(typeName, index);
  }
  return index.get(key);
}
