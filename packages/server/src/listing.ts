import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { sendJson } from '@a2a-polyglot/http';
import { restError } from '@a2a-polyglot/rest';
import { browserAccessCheck, sendAccessRefusal } from './browser-access.js';
import { applyCorsHeaders } from './cors.js';
import type { A2AHttpOptions } from './options.js';
import { publicBaseUrl, publicUrlVary } from './public-url.js';

/** What a listing of the served agents reads: the root listener's options, and the agents it lists. */
export interface ServedAgents {
  /** The options of the agent at the root; its public URL settings build every listed URL. */
  readonly root: A2AHttpOptions;
  /** The agents to list, in order: the mounted ones, or the root agent alone when nothing is mounted. */
  readonly listed: () => readonly A2AHttpOptions[];
}

/**
 * The common start of every read-only listing (`/agents`, `/.well-known/api-catalog`): refuses
 * other methods than GET and HEAD with 405 + `Allow`, refuses what the browser access check
 * refuses (a `Host` that is not ours; any `Origin` may read, as the listings are as public as the
 * cards they point at), sets the CORS headers when the root has CORS on, and gives the public base
 * URL plus the `Vary` header that URL depends on. Undefined when the request was answered.
 */
export function beginListing(
  req: IncomingMessage,
  res: ServerResponse,
  root: A2AHttpOptions,
  what: string,
): { readonly base: string; readonly vary: Record<string, string> } | undefined {
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const error = restError(new A2AError(A2AErrorCode.MethodNotFound, `${what} is read with GET`), undefined, 405);
    sendJson(res, 405, error.body, 'application/json', { allow: 'GET, HEAD' });
    return undefined;
  }
  const access = browserAccessCheck(root)(req, true);
  if (!access.ok) {
    sendAccessRefusal(res, access.reason, { logger: root.logger });
    return undefined;
  }
  if (root.cors ?? true) applyCorsHeaders(res, access.allowOrigin);
  const base = publicBaseUrl(req, root.publicBaseUrl, root.trustProxy ?? false);
  const varied = publicUrlVary(root.publicBaseUrl, root.trustProxy ?? false);
  const vary: Record<string, string> = varied.length > 0 ? { vary: varied.join(', ') } : {};
  return { base, vary };
}
