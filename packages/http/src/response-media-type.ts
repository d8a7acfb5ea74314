import type { IncomingMessage } from 'node:http';
import { JSON_MEDIA_TYPES, mediaType } from './headers.js';

/**
 * The JSON media type to answer a request in: the one the client sent its body in
 * (`Content-Type`), else the one its `Accept` prefers among `application/json` and
 * `application/a2a+json` (GET and DELETE carry no body), else the binding's `fallback`.
 *
 * Why not always the binding's own: v1.0.0 clients (and the public compatibility suite)
 * expect `application/json`, v1.0.1 clients `application/a2a+json`; answering in the type the
 * client used serves both without guessing its version. Errors follow the same rule; SSE
 * streams stay `text/event-stream`.
 */
export function responseMediaType(req: IncomingMessage, fallback: string): string {
  return responseMediaTypeOf(req.headers['content-type'], req.headers.accept, fallback);
}

/** {@link responseMediaType} from the request's `Content-Type` and `Accept` values (any runtime). */
export function responseMediaTypeOf(contentType: string | undefined, accept: string | undefined, fallback: string): string {
  const sent = mediaType(contentType);
  if (sent !== undefined && JSON_MEDIA_TYPES.includes(sent)) return sent;
  return acceptedJsonType(accept) ?? fallback;
}

/** The JSON media type an `Accept` value ranks highest (first listed on a tie); wildcards name none. */
function acceptedJsonType(accept: string | undefined): string | undefined {
  if (!accept) return undefined;
  let best: { readonly type: string; readonly q: number } | undefined;
  for (const range of accept.split(',')) {
    const [name, ...params] = range.split(';');
    const type = (name ?? '').trim().toLowerCase();
    if (!JSON_MEDIA_TYPES.includes(type)) continue;
    const q = quality(params);
    if (q > 0 && (best === undefined || q > best.q)) best = { type, q };
  }
  return best?.type;
}

/** The `q` parameter of a media range (RFC 9110 §12.4.2), 1 when absent or malformed. */
function quality(params: readonly string[]): number {
  for (const param of params) {
    const [key, value] = param.split('=');
    if ((key ?? '').trim().toLowerCase() !== 'q') continue;
    const q = Number(value?.trim());
    return Number.isFinite(q) ? q : 1;
  }
  return 1;
}
