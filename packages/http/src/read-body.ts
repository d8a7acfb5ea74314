import type { IncomingMessage } from 'node:http';
import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';

/**
 * Reads a request body as UTF-8 text with a hard byte limit.
 *
 * Why streaming with a running count instead of buffering first: a client must not be able to
 * make the server hold more than `maxBytes` of its data. A `Content-Length` above the limit
 * fails before a single byte is read; a chunked or lying body fails as soon as the running
 * count crosses the limit, and the rest is not read (the binding answers 413 and the
 * connection is closed after the response).
 *
 * @throws A2AError(PayloadTooLarge) when the body exceeds `maxBytes`.
 */
export function readBodyText(req: IncomingMessage, maxBytes: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes) {
    return Promise.reject(tooLarge(maxBytes));
  }
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
export async function readJsonBody(req: IncomingMessage, maxBytes: number): Promise<unknown> {
  const text = await readBodyText(req, maxBytes);
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    // Checked only on failure: most bodies are JSON, and trimming a large one costs a copy.
    if (text.trim() === '') return undefined;
    throw new A2AError(A2AErrorCode.ParseError, 'The request body is not valid JSON', { cause });
  }
}

function tooLarge(maxBytes: number): A2AError {
  return new A2AError(A2AErrorCode.PayloadTooLarge, `The request body exceeds the limit of ${maxBytes} bytes`, {
    metadata: { limitBytes: String(maxBytes) },
  });
}
