import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { type HttpExchangeBody, jsonResult } from '@a2a-polyglot/http';
import { restError } from '@a2a-polyglot/rest';
import type { ArrivingRequest } from './arriving-request.js';
import { accessRefusal, browserAccessCheck } from './browser-access.js';
import { corsHeaders } from './cors.js';
import type { A2AHttpOptions } from './options.js';
import { publicBaseUrl, publicUrlVary } from './public-url.js';

/** What a listing of the served agents reads: the root listener's options, and the agents it lists. */
export interface ServedAgents {
  /** The options of the agent at the root; its public URL settings build every listed URL. */
  readonly root: A2AHttpOptions;
  /** The agents to list, in order: the mounted ones, or the root agent alone when nothing is mounted. */
  readonly listed: () => readonly A2AHttpOptions[];
  /**
   * The path the whole server is served under, in front of every listed URL (default `''`): a
   * fetch handler's `mountPath`, which is its root (a Lambda stage, a framework mount).
   */
  readonly prefix?: string;
}

/** How a listing goes on after {@link beginListing}: the answer already decided, or where to build it. */
export type ListingStart =
  | { readonly answer: HttpExchangeBody }
  | {
      readonly answer?: undefined;
      /** The public base URL the listed URLs are built from (with the served prefix). */
      readonly base: string;
      /** The headers of the listing's answer: the CORS headers, then the `Vary` of `base`. */
      readonly headers: Readonly<Record<string, string>>;
    };

/**
 * The common start of every read-only listing (`/agents`, `/.well-known/api-catalog`): refuses
 * other methods than GET and HEAD with 405 + `Allow`, refuses what the browser access check
 * refuses (a `Host` that is not ours; any `Origin` may read, as the listings are as public as the
 * cards they point at), adds the CORS headers when the root has CORS on, and gives the public base
 * URL plus the `Vary` header that URL depends on. Runtime-free.
 */
export function beginListing(req: ArrivingRequest, agents: Pick<ServedAgents, 'root' | 'prefix'>, what: string): ListingStart {
  const { root } = agents;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const error = restError(new A2AError(A2AErrorCode.MethodNotFound, `${what} is read with GET`), undefined, 405);
    return { answer: jsonResult(405, error.body, 'application/json', { allow: 'GET, HEAD' }) };
  }
  const access = browserAccessCheck(root)(req, true);
  if (!access.ok) return { answer: accessRefusal(access.reason, { logger: root.logger }) };
  const headers: Record<string, string> = (root.cors ?? true) ? corsHeaders(access.allowOrigin) : {};
  const base = `${publicBaseUrl(req, root.publicBaseUrl, root.trustProxy ?? false)}${agents.prefix ?? ''}`;
  const varied = publicUrlVary(root.publicBaseUrl, root.trustProxy ?? false);
  if (varied.length > 0) headers.vary = varied.join(', ');
  return { base, headers };
}
