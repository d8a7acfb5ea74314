import type { IncomingMessage } from 'node:http';
import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { parseJsonText, payloadTooLarge } from './exchange.js';

/**
 * Reads a request body as UTF-8 text with a hard byte limit.
 *
 * Why streaming with a running count instead of buffering first: a client must not be able to
 * make the server hold more than `maxBytes` of its data. A `Content-Length` above the limit
 * fails before a single byte is read; a chunked or lying body fails as soon as the running
 * count crosses the limit, and the rest is not read (the binding answers 413 and the
 * connection is closed after the response).
 *
 * When a framework already read the body (Express's `express.json()`, `express.text()`,
 * `express.raw()`: see {@link frameworkBody}), its `req.body` is used instead of the spent
 * stream: a string or Buffer as the text, a parsed value as its JSON text; the limit still holds.
 *
 * @throws A2AError(PayloadTooLarge) when the body exceeds `maxBytes`.
 */
export function readBodyText(req: IncomingMessage, maxBytes: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return Promise.reject(tooLarge(maxBytes));
  }
  const parsed = frameworkBody(req);
  if (parsed !== undefined) {
    try {
      return Promise.resolve(parsedText(parsed, maxBytes));
    } catch (error) {
      return Promise.reject(error);
    }
  }
  if (req.readableEnded) return Promise.reject(spent());
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const finish = (error: A2AError | undefined, text?: string) => {
      if (settled) return;
      settled = true;
      req.off('data', onData).off('end', onEnd).off('error', onError).off('close', onClose);
      if (error) reject(error);
      else resolve(text ?? '');
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.pause();
        finish(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => finish(undefined, Buffer.concat(chunks, size).toString('utf8'));
    const onError = (cause: Error) => finish(new A2AError(A2AErrorCode.InvalidRequest, 'The request body could not be read', { cause }));
    const onClose = () => finish(new A2AError(A2AErrorCode.InvalidRequest, 'The client closed the connection before sending the whole body'));
    req.on('data', onData).on('end', onEnd).on('error', onError).on('close', onClose);
  });
}

/**
 * Reads and parses a JSON request body (see {@link readBodyText} for the limit).
 * An empty (or whitespace-only) body reads as `undefined`, so bindings decide whether a body
 * is required; malformed JSON is a ParseError, never an exception from `JSON.parse`.
 *
 * @throws A2AError(PayloadTooLarge | ParseError | InvalidRequest)
 */
export function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const parsed = frameworkBody(req);
  // Not async: the usual body (a stream of ours) then costs one promise and one reaction.
  if (parsed === undefined || parsed.kind !== 'value') return readBodyText(req, maxBytes).then(parseJsonText);
  try {
    return Promise.resolve(parsedJson(req, parsed.value, maxBytes));
  } catch (error) {
    return Promise.reject(error);
  }
}

/** {@link readJsonBody} of a body a framework already parsed. */
function parsedJson(req: IncomingMessage, value: unknown, maxBytes: number): unknown {
  const declared = Number(req.headers['content-length']);
  // The parser saw bytes we did not: the declared length bounds them when present (a cheap
  // check); a chunked body is measured as its JSON text, which is about as long.
  if (Number.isFinite(declared) && req.headers['content-length'] !== undefined) {
    if (declared > maxBytes) throw tooLarge(maxBytes);
    // body-parser reads an empty JSON body as `{}`; an empty body is `undefined` here.
    return declared === 0 ? undefined : value;
  }
  if (Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8') > maxBytes) throw tooLarge(maxBytes);
  return value;
}

/** A body a framework already read from the request: its text, or the value it parsed. */
export type FrameworkBody = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'value'; readonly value: unknown };

/**
 * The body a framework middleware already read, or `undefined` when the stream is still ours.
 *
 * Why both conditions: `req.body` alone is not proof (a framework may preset it, e.g. to `{}`,
 * without reading), and a stream that has ended yields no more `data` or `end`, so waiting on it
 * would hang the request forever. The body counts as read when `req.body` is set and the stream
 * has ended, or the whole message arrived and nothing of it is left to read.
 */
export function frameworkBody(req: IncomingMessage): FrameworkBody | undefined {
  const body = (req as IncomingMessage & { body?: unknown }).body;
  if (body === undefined) return undefined;
  const spentStream = req.readableEnded || (req.complete && req.readableLength === 0);
  if (!spentStream) return undefined;
  if (typeof body === 'string') return { kind: 'text', text: body };
  if (Buffer.isBuffer(body)) return { kind: 'text', text: body.toString('utf8') };
  return { kind: 'value', value: body };
}

function parsedText(parsed: FrameworkBody, maxBytes: number): string {
  const text = parsed.kind === 'text' ? parsed.text : (JSON.stringify(parsed.value) ?? '');
  if (Buffer.byteLength(text, 'utf8') > maxBytes) throw tooLarge(maxBytes);
  return text;
}

function spent(): A2AError {
  return new A2AError(A2AErrorCode.InvalidRequest, 'The request body was already read by another middleware, which left no body behind');
}

const tooLarge = payloadTooLarge;
