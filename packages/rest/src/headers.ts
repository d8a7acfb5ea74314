import type { IncomingMessage } from 'node:http';
import { resumeCursor } from '@a2a-polyglot/core';
import { headerValue } from '@a2a-polyglot/http';

/** Default content type of REST response bodies (spec §3.1, v1.0.1); a client that uses `application/json` gets that back. */
export const REST_CONTENT_TYPE = 'application/a2a+json';

/**
 * The SubscribeToTask resume point from `Last-Event-ID` (undefined when absent).
 * @throws A2AError(InvalidParams) when it is not a non-negative integer.
 */
export function resumeAfterSeq(req: IncomingMessage): number | undefined {
  return resumeCursor(headerValue(req, 'last-event-id'), 'Last-Event-ID');
}

/** The query parameters of a request (the REST handler receives the path separately, relative to its base). */
export function queryOf(req: IncomingMessage): URLSearchParams {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  return new URLSearchParams(q < 0 ? '' : url.slice(q + 1));
}
