import { routingPath } from '@a2a-polyglot/http';
import { serveAgentIndex } from './agent-index.js';
import { serveApiCatalog } from './api-catalog.js';
import type { A2ARequestListener } from './listener.js';
import type { ServedAgents } from './listing.js';
import { normalizeMountPath } from './options.js';

/** Which listings of the served agents a server answers (see {@link withServiceListings}). */
export interface ServiceListingOptions {
  /** Where `GET` lists the served agents as `{"agents": [...]}` (e.g. `/agents`); unset: no listing. */
  readonly indexPath?: string;
  /** Serve the RFC 9727 API catalog at `/.well-known/api-catalog`. Default false. */
  readonly apiCatalog?: boolean;
}

/**
 * `inner`, plus the listings of what the server serves: the agent index at `indexPath` and
 * the API catalog. Why one wrapper for both modes: a single-agent server and one with mounts
 * answer the same listings, so a tool reads a host the same way whatever it runs.
 */
export function withServiceListings(inner: A2ARequestListener, agents: ServedAgents, options: ServiceListingOptions): A2ARequestListener {
  const indexPath = options.indexPath === undefined ? undefined : normalizeMountPath(options.indexPath);
  if (indexPath === undefined && !options.apiCatalog) return inner;
  return (req, res, next) => {
    const path = routingPath(req.url);
    if (indexPath !== undefined && serveAgentIndex(req, res, path, { path: indexPath, root: agents.root, mounts: agents.listed() })) return;
    if (options.apiCatalog && serveApiCatalog(req, res, path, agents)) return;
    inner(req, res, next);
  };
}
