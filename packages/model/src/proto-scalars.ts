import { PROTO_SCHEMA } from './gen/proto-schema.js';
import { jsonTypeOf } from './json-type.js';
import { clipInput, quoteInput } from './quote-input.js';
import type { ScalarKind } from './schema.js';

/*
 * The ProtoJSON rules of single values that are not messages: enums, the scalar kinds and map
 * keys. Each check returns a description of what is wrong, or undefined when the value is fine.
 */

/** An enum value: a known value name, or the number of a known value. */
export function checkEnum(enumName: string, value: unknown): string | undefined {
  const values = PROTO_SCHEMA.enums[enumName];
  // The generated schema names every enum a field refers to: a miss is a schema bug, not bad input.
  if (!values) throw new Error(`The protobuf schema has no enum "${enumName}"`);
  if (typeof value === 'string') {
    return Object.hasOwn(values, value) ? undefined : `unknown ${enumName} value ${quoteInput(value)} (expected one of ${Object.keys(values).join(', ')})`;
  }
  if (typeof value === 'number') {
    return Object.values(values).includes(value) ? undefined : `unknown ${enumName} number ${value}`;
  }
  return `expected an enum value name (string) or number, got ${jsonTypeOf(value)}`;
}

const INT32: [number, number] = [-2147483648, 2147483647];
const UINT32: [number, number] = [0, 4294967295];
const INT64: [bigint, bigint] = [-(2n ** 63n), 2n ** 63n - 1n];
const UINT64: [bigint, bigint] = [0n, 2n ** 64n - 1n];
const FLOAT_MAX = 3.4028234663852886e38;
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
const BASE64 = /^[A-Za-z0-9+/\-_]*={0,2}$/;

function rangeOf(kind: ScalarKind): [number, number] | [bigint, bigint] {
  switch (kind) {
    case 'int32':
    case 'sint32':
    case 'sfixed32':
      return INT32;
    case 'uint32':
    case 'fixed32':
      return UINT32;
    case 'int64':
    case 'sint64':
    case 'sfixed64':
      return INT64;
    default:
      return UINT64;
  }
}

/** Returns a description of what is wrong with a scalar value, or undefined when it is fine. */
export function checkScalar(kind: ScalarKind, value: unknown): string | undefined {
  switch (kind) {
    case 'string':
      return typeof value === 'string' ? undefined : `expected a string, got ${jsonTypeOf(value)}`;
    case 'bool':
      return typeof value === 'boolean' ? undefined : `expected a boolean, got ${jsonTypeOf(value)}`;
    case 'bytes':
      if (typeof value !== 'string') return `expected a base64 string, got ${jsonTypeOf(value)}`;
      return isBase64(value) ? undefined : 'expected a base64 string';
    case 'double':
    case 'float':
      return checkFloat(kind, value);
    default:
      return checkInteger(kind, value);
  }
}

function isBase64(s: string): boolean {
  if (!BASE64.test(s)) return false;
  const padded = s.endsWith('=');
  if (padded) return s.length % 4 === 0;
  return s.length % 4 !== 1;
}

function checkFloat(kind: 'double' | 'float', value: unknown): string | undefined {
  let n: number;
  if (typeof value === 'number') {
    n = value;
  } else if (typeof value === 'string') {
    if (value === 'NaN' || value === 'Infinity' || value === '-Infinity') return undefined;
    if (!JSON_NUMBER.test(value)) return `expected a number, got the string ${quoteInput(value)}`;
    n = Number(value);
  } else {
    return `expected a number, got ${jsonTypeOf(value)}`;
  }
  if (!Number.isFinite(n) || (kind === 'float' && Math.abs(n) > FLOAT_MAX)) return `number out of range for ${kind}`;
  return undefined;
}

function checkInteger(kind: ScalarKind, value: unknown): string | undefined {
  const [min, max] = rangeOf(kind);
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isInteger(value)) return `expected an integer (${kind}), got ${value}`;
    if (typeof min === 'number') {
      return value >= min && value <= (max as number) ? undefined : `${value} is out of range for ${kind}`;
    }
    text = String(value);
    if (!Number.isSafeInteger(value)) return `${kind} values beyond 2^53 must be sent as strings`;
  } else if (typeof value === 'string') {
    if (!JSON_NUMBER.test(value)) return `expected an integer (${kind}), got the string ${quoteInput(value)}`;
    text = value;
  } else {
    return `expected an integer (${kind}), got ${jsonTypeOf(value)}`;
  }
  const big = toBigIntExact(text);
  if (big === undefined) return `expected an integer (${kind}), got ${quoteInput(text)}`;
  return big >= BigInt(min) && big <= BigInt(max) ? undefined : `${clipInput(text)} is out of range for ${kind}`;
}

/** Converts a JSON-number string to a BigInt when it denotes an integer (e.g. "1e3", "5.0"). */
function toBigIntExact(text: string): bigint | undefined {
  const m = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return undefined;
  const [, sign = '', int = '0', frac = '', expText = '0'] = m;
  const exp = Number(expText);
  if (!Number.isSafeInteger(exp) || Math.abs(exp) > 400) return undefined;
  let digits = int + frac;
  let scale = exp - frac.length; // value = digits * 10^scale
  if (scale < 0) {
    const cut = digits.length + scale;
    const dropped = cut > 0 ? digits.slice(cut) : digits;
    if (/[^0]/.test(dropped)) return undefined;
    digits = cut > 0 ? digits.slice(0, cut) : '0';
    scale = 0;
  }
  return BigInt(sign + digits + '0'.repeat(scale));
}

/** A map key (always a JSON string) of a map whose keys are of `kind`. */
export function checkMapKey(kind: ScalarKind, key: string): string | undefined {
  switch (kind) {
    case 'string':
      return undefined;
    case 'bool':
      return key === 'true' || key === 'false' ? undefined : `map key must be "true" or "false"`;
    default: {
      if (!/^-?(?:0|[1-9]\d*)$/.test(key)) return `map key must be an integer (${kind})`;
      const problem = checkInteger(kind, key);
      return problem ? `map key: ${problem}` : undefined;
    }
  }
}
