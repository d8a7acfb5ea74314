import { isLiteState, isLiteType, KEY_PATTERN, LITE_REQUIRED, TYPE_PATTERN, type LiteType } from './grammar.js';

/** A protocol message: the tag's type and parameters, and the natural-language body. */
export interface LiteMessage {
  readonly type: string;
  readonly params: Readonly<Record<string, string>>;
  /** Text after the tag on its line, then lines 2..n; trailing newlines dropped; `''` when there is none. */
  readonly body: string;
  /** Names from body lines like `[附件: report.md]` / `[attachment: report.md]`. */
  readonly attachments: readonly string[];
}

/**
 * What {@link parseLite} found: a protocol message, or plain text (`isA2A: false`, with the
 * reason when the text looked like a tag but was not a valid one). Same top-level shape as
 * the skill's `parse_message.sh`, but always valid JSON.
 */
export type ParsedLite = ({ readonly isA2A: true } & LiteMessage) | { readonly isA2A: false; readonly reason?: string };

/** A message that cannot be formatted (unknown type, missing parameter, bad key or state). */
export class LiteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'LiteError';
  }
}

const ATTACHMENT = /^\s*\[(?:附件|attachment|Attachment|file|File)\s*[:：]\s*(.+?)\s*\]\s*$/;

/**
 * Parses chat text. Anything whose first line is not a well-formed `[A2A:<type> …]` tag is
 * plain conversation (the convention's graceful degradation). Values are bare (no spaces) or
 * double-quoted with JSON-style escapes (`\"`, `\\`, `\n`, `\t`, `\uXXXX`); a bare word
 * without `=` continues the previous value, which recovers multi-word values written by
 * formatters that do not quote.
 */
export function parseLite(text: string): ParsedLite {
  const normalized = text.replace(/\r\n?/g, '\n').replace(/^[\s\uFEFF]+/, '');
  const newline = normalized.indexOf('\n');
  const first = (newline < 0 ? normalized : normalized.slice(0, newline)).trimEnd();
  if (!first.startsWith('[A2A:')) return { isA2A: false };
  // The tag ends at its first "]" outside a quoted value; text after it on the same line
  // starts the body (the skill's own example is `[A2A:task id=123]...` on one line).
  let close = tagEnd(first);
  if (close < 0) {
    if (!first.endsWith(']')) return { isA2A: false, reason: 'the tag line does not end with "]"' };
    close = first.length - 1; // an unterminated quote: scanHeader names it
  }
  const header = scanHeader(first.slice('[A2A:'.length, close));
  if ('reason' in header) return { isA2A: false, reason: header.reason };
  const sameLine = first.slice(close + 1).trim();
  const nextLines = newline < 0 ? '' : normalized.slice(newline + 1);
  const body = (sameLine === '' ? nextLines : nextLines === '' ? sameLine : `${sameLine}\n${nextLines}`).replace(/\n+$/, '');
  const attachments = body
    .split('\n')
    .map((line) => ATTACHMENT.exec(line)?.[1])
    .filter((name): name is string => name !== undefined);
  return { isA2A: true, type: header.type, params: header.params, body, attachments };
}

/** Index of the "]" that closes the tag on its line (quotes and their escapes skipped), or -1. */
function tagEnd(line: string): number {
  let quoted = false;
  for (let i = '[A2A:'.length; i < line.length; i++) {
    const c = line[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
    else if (c === ']' && !quoted) return i;
  }
  return -1;
}

function scanHeader(inner: string): { type: string; params: Record<string, string> } | { reason: string } {
  let i = 0;
  const skipSpace = () => {
    while (i < inner.length && /\s/.test(inner.charAt(i))) i++;
  };
  skipSpace();
  const typeStart = i;
  while (i < inner.length && !/\s/.test(inner.charAt(i))) i++;
  const type = inner.slice(typeStart, i);
  if (!TYPE_PATTERN.test(type)) return { reason: `invalid message type ${JSON.stringify(type)}` };
  const params: Record<string, string> = {};
  let lastKey: string | undefined;
  for (;;) {
    skipSpace();
    if (i >= inner.length) break;
    const start = i;
    while (i < inner.length && !/\s/.test(inner.charAt(i)) && inner[i] !== '=') i++;
    if (inner[i] !== '=') {
      // A bare word: the continuation of an unquoted multi-word value.
      if (lastKey === undefined) return { reason: `unexpected ${JSON.stringify(inner.slice(start, i))} before any key=value` };
      params[lastKey] = `${params[lastKey]} ${inner.slice(start, i)}`;
      continue;
    }
    const key = inner.slice(start, i);
    if (!KEY_PATTERN.test(key)) return { reason: `invalid parameter name ${JSON.stringify(key)}` };
    i++; // '='
    if (inner[i] === '"') {
      const quoted = readQuoted(inner, i);
      if ('reason' in quoted) return quoted;
      params[key] = quoted.value;
      i = quoted.end;
      if (i < inner.length && !/\s/.test(inner.charAt(i))) return { reason: `text right after the quoted value of ${key}` };
      lastKey = undefined; // a quoted value is complete
    } else {
      const valueStart = i;
      while (i < inner.length && !/\s/.test(inner.charAt(i))) i++;
      params[key] = inner.slice(valueStart, i);
      lastKey = key;
    }
  }
  return { type, params };
}

const ESCAPES: Record<string, string> = { '"': '"', '\\': '\\', '/': '/', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };

function readQuoted(text: string, open: number): { value: string; end: number } | { reason: string } {
  let out = '';
  for (let i = open + 1; i < text.length; i++) {
    const c = text.charAt(i);
    if (c === '"') return { value: out, end: i + 1 };
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = text[++i];
    if (e === 'u' && /^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5))) {
      out += String.fromCharCode(parseInt(text.slice(i + 1, i + 5), 16));
      i += 4;
    } else if (e !== undefined && ESCAPES[e] !== undefined) {
      out += ESCAPES[e];
    } else {
      return { reason: `invalid escape \\${e ?? ''} in a quoted value` };
    }
  }
  return { reason: 'unterminated quoted value' };
}

/**
 * Formats a protocol message: `[A2A:<type> k=v …]`, then the body on the following lines.
 * Values are written bare when that parses back unchanged, otherwise quoted and escaped, so
 * `parseLite(formatLite(m))` returns `m` for any string values. Checks what the convention
 * requires (known type, required parameters, valid `state`) and throws {@link LiteError}.
 */
export function formatLite(type: LiteType | string, params: Readonly<Record<string, string | number | undefined>> = {}, body = ''): string {
  if (!isLiteType(type))
    throw new LiteError(`Unknown A2A-Lite message type ${JSON.stringify(type)} (known: discover, card, task, status, result, cancel, ack)`);
  const entries = Object.entries(params).filter((e): e is [string, string | number] => e[1] !== undefined);
  for (const [key] of entries)
    if (!KEY_PATTERN.test(key)) throw new LiteError(`Invalid A2A-Lite parameter name ${JSON.stringify(key)} (lower-case letters, digits, "_" and "-")`);
  for (const key of LITE_REQUIRED[type]) {
    if (!entries.some(([k, v]) => k === key && String(v) !== '')) throw new LiteError(`A2A-Lite "${type}" messages need ${key}=`);
  }
  const state = params.state;
  if (state !== undefined && (type === 'status' || type === 'result') && !isLiteState(String(state))) {
    throw new LiteError(`Invalid A2A-Lite state ${JSON.stringify(state)} (known: accepted, working, input-required, completed, failed, cancelled, rejected)`);
  }
  const tag = `[A2A:${type}${entries.map(([k, v]) => ` ${k}=${encodeValue(String(v))}`).join('')}]`;
  const text = body.replace(/\r\n?/g, '\n').replace(/\n+$/, '');
  return text === '' ? tag : `${tag}\n${text}`;
}

/** Formats a parsed (or hand-built) message. */
export function formatLiteMessage(message: Pick<LiteMessage, 'type' | 'params' | 'body'>): string {
  return formatLite(message.type, message.params, message.body);
}

/** A bare value when it survives parsing unchanged; a quoted, escaped one otherwise. */
function encodeValue(value: string): string {
  if (value !== '' && /^[^\s"\\[\]]+$/.test(value) && !value.startsWith('"')) return value;
  let out = '"';
  for (const c of value) {
    if (c === '"' || c === '\\') out += `\\${c}`;
    else if (c === '\n') out += '\\n';
    else if (c === '\r') out += '\\r';
    else if (c === '\t') out += '\\t';
    else if (c < ' ' || c === '\u2028' || c === '\u2029' || c === '\u0085') out += `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += c;
  }
  return `${out}"`;
}
