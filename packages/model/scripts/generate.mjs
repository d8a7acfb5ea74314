#!/usr/bin/env node
/**
 * Regenerates packages/model/src/gen/ from the protos in proto/ — fully offline:
 *
 *   1. `buf generate` (repo-root buf.yaml + buf.gen.yaml) runs ts-proto as a local plugin and
 *      writes the message / service code. buf.gen.yaml has `clean: true`, so files of removed
 *      protos disappear.
 *   2. `buf build` produces the FileDescriptorSet as JSON, from which this script emits
 *      src/gen/proto-schema.ts: a compact table (json names, types, oneofs, enums) that drives
 *      the strict ProtoJSON validator. Generating it from the same protos keeps the validator
 *      and the ts-proto code from drifting apart.
 *
 * The output is committed; `npm run check:generated` fails when it is stale.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const repoRoot = path.resolve(pkgDir, '../..');
const genDir = path.join(pkgDir, 'src', 'gen');
const schemaFile = path.join(genDir, 'proto-schema.ts');

const require = createRequire(path.join(repoRoot, 'package.json'));
const bufBin = path.join(path.dirname(require.resolve('@bufbuild/buf/package.json')), 'bin', 'buf');

/** Runs buf from the repo root (where buf.yaml / buf.gen.yaml live). */
function buf(args, opts = {}) {
  return execFileSync(process.execPath, [bufBin, ...args], {
    cwd: repoRoot,
    maxBuffer: 256 * 1024 * 1024,
    ...opts,
  });
}

// 1. ts-proto code.
buf(['generate'], { stdio: 'inherit' });

// 2. Descriptor table for the validator.
const image = JSON.parse(buf(['build', '--exclude-source-info', '-o', '-#format=json']).toString('utf8'));

/** google.protobuf types whose ProtoJSON form the validator implements specially. */
const SUPPORTED_WELL_KNOWN = new Set([
  'google.protobuf.Struct',
  'google.protobuf.Value',
  'google.protobuf.ListValue',
  'google.protobuf.Timestamp',
  'google.protobuf.Empty',
]);

const SCALARS = {
  TYPE_DOUBLE: 'double',
  TYPE_FLOAT: 'float',
  TYPE_INT64: 'int64',
  TYPE_UINT64: 'uint64',
  TYPE_INT32: 'int32',
  TYPE_FIXED64: 'fixed64',
  TYPE_FIXED32: 'fixed32',
  TYPE_BOOL: 'bool',
  TYPE_STRING: 'string',
  TYPE_BYTES: 'bytes',
  TYPE_UINT32: 'uint32',
  TYPE_SFIXED32: 'sfixed32',
  TYPE_SFIXED64: 'sfixed64',
  TYPE_SINT32: 'sint32',
  TYPE_SINT64: 'sint64',
};

const messages = new Map(); // full name -> descriptor (all files, incl. map entries)
const enums = new Map(); // full name -> { values }
const ownMessages = []; // full names of messages declared outside google/, in file order
const ownEnums = [];

function collect(prefix, msgs, own) {
  for (const m of msgs ?? []) {
    const full = `${prefix}.${m.name}`;
    messages.set(full, m);
    if (own && !m.options?.mapEntry) ownMessages.push(full);
    for (const e of m.enumType ?? []) {
      enums.set(`${full}.${e.name}`, e);
      if (own) ownEnums.push(`${full}.${e.name}`);
    }
    collect(full, m.nestedType, own);
  }
}
for (const file of image.file) {
  // google/* (well-known types, google.rpc error details) are not A2A messages: no ProtoJSON table.
  const own = !file.name.startsWith('google/');
  for (const e of file.enumType ?? []) {
    const full = `${file.package}.${e.name}`;
    enums.set(full, e);
    if (own) ownEnums.push(full);
  }
  collect(file.package, file.messageType, own);
}

const strip = (typeName) => typeName.replace(/^\./, '');

/** Describes a field's value type (scalar / enum / message), checking well-known types. */
function valueType(field, where) {
  if (field.type === 'TYPE_ENUM') {
    const t = strip(field.typeName);
    if (!enums.has(t)) throw new Error(`${where}: unknown enum ${t}`);
    return { kind: 'enum', type: t };
  }
  if (field.type === 'TYPE_MESSAGE' || field.type === 'TYPE_GROUP') {
    const t = strip(field.typeName);
    if (t.startsWith('google.protobuf.') && !SUPPORTED_WELL_KNOWN.has(t)) {
      throw new Error(`${where}: well-known type ${t} has no ProtoJSON support in the validator yet`);
    }
    return { kind: 'message', type: t };
  }
  const kind = SCALARS[field.type];
  if (!kind) throw new Error(`${where}: unsupported field type ${field.type}`);
  return { kind };
}

const q = (s) => JSON.stringify(s);

function fieldLiteral(msgName, m, f) {
  const where = `${msgName}.${f.name}`;
  const parts = [`name: ${q(f.name)}`, `json: ${q(f.jsonName)}`, `no: ${f.number}`];
  const entryName = f.type === 'TYPE_MESSAGE' ? strip(f.typeName) : undefined;
  const entry = entryName ? messages.get(entryName) : undefined;
  if (f.label === 'LABEL_REPEATED' && entry?.options?.mapEntry) {
    const [k, v] = entry.field;
    const key = valueType(k, `${where} (map key)`);
    const val = valueType(v, `${where} (map value)`);
    parts.push(`kind: "map"`, `key: ${q(key.kind)}`, `value: { kind: ${q(val.kind)}${val.type ? `, type: ${q(val.type)}` : ''} }`);
  } else {
    const t = valueType(f, where);
    parts.push(`kind: ${q(t.kind)}`);
    if (t.type) parts.push(`type: ${q(t.type)}`);
    if (f.label === 'LABEL_REPEATED') parts.push('repeated: true');
  }
  if (f.proto3Optional) {
    parts.push('optional: true');
  } else if (f.oneofIndex !== undefined) {
    parts.push(`oneof: ${q(m.oneofDecl[f.oneofIndex].name)}`);
  }
  return `{ ${parts.join(', ')} }`;
}

const out = [];
out.push('// Code generated by packages/model/scripts/generate.mjs from proto/. DO NOT EDIT.');
out.push('// ProtoJSON schema of the A2A messages: drives validateProtoJson / parseProtoJson.');
out.push('');
out.push('import type { ProtoSchema } from "../schema.js";');
out.push('');
out.push('/**');
out.push(' * Every message (fields in declaration order) and enum of the A2A protos, as the strict');
out.push(' * ProtoJSON validator needs them. Generated because ts-proto code carries no descriptors.');
out.push(' */');
out.push('export const PROTO_SCHEMA: ProtoSchema = {');
out.push('  messages: {');
for (const name of ownMessages) {
  const m = messages.get(name);
  out.push(`    ${q(name)}: [`);
  for (const f of m.field ?? []) out.push(`      ${fieldLiteral(name, m, f)},`);
  out.push('    ],');
}
out.push('  },');
out.push('  enums: {');
for (const name of ownEnums) {
  const e = enums.get(name);
  const values = e.value.map((v) => `${v.name}: ${v.number}`).join(', ');
  out.push(`    ${q(name)}: { ${values} },`);
}
out.push('  },');
out.push('};');
out.push('');

mkdirSync(genDir, { recursive: true });
writeFileSync(schemaFile, out.join('\n'));
console.log(`generate: wrote ${path.relative(repoRoot, schemaFile)} (${ownMessages.length} messages, ${ownEnums.length} enums)`);
