import { type HttpExchangeBody, routingPath, writeNodeResult } from '@a2a-polyglot/http';
import { agentIndexAnswer } from './agent-index.js';
import { apiCatalogAnswer } from './api-catalog.js';
import { type ArrivingRequest, nodeArrivingRequest } from './arriving-request.js';
import type { A2ARequestListener } from './listener.js';
import type { ServedAgents } from './listing.js';
import { normalizeMountPath, type ServiceListingSettings } from './options.js';

/** Which listings of the served agents a server answers (see {@link withServiceListings}). */
export interface ServiceListingOptions {
  /** Where `GET` lists the served agents as `{"agents": [...]}` (e.g. `/agents`); unset: no listing. */
  readonly indexPath?: string;
  /** Serve the RFC 9727 API catalog at `/.well-known/api-catalog`. Default false. */
  readonly apiCatalog?: boolean;
}

/** Answers a listing path, or undefined for any other path (see {@link serviceListings}). */
export type ServiceListings = (req: ArrivingRequest, path: string) => HttpExchangeBody | undefined;

/**
 * The listings of what a server serves: the agent index at `indexPath` and the API catalog,
 * or undefined when neither is on. Why one router for both modes and both runtimes: a
 * single-agent server, one with mounts and a fetch handler answer the same listings, so a
 * tool reads a host the same way whatever it runs.
 */
export function serviceListings(agents: ServedAgents, options: ServiceListingOptions): ServiceListings | undefined {
  const indexPath = options.indexPath === undefined ? undefined : normalizeMountPath(options.indexPath);
  if (indexPath === undefined && !options.apiCatalog) return undefined;
  return (req, path) =>
    (indexPath === undefined
      ? undefined
      : agentIndexAnswer(req, path, { path: indexPath, root: agents.root, mounts: agents.listed(), prefix: agents.prefix })) ??
    (options.apiCatalog ? apiCatalogAnswer(req, path, agents) : undefined);
}

/** The {@link ServiceListingOptions} of a host's {@link ServiceListingSettings}. */
export function listingOptionsOf(settings: ServiceListingSettings): ServiceListingOptions {
  return { indexPath: settings.agentIndexPath, apiCatalog: settings.apiCatalog };
}

/** `inner`, plus the {@link serviceListings} answered on node:http before it. */
export function withServiceListings(inner: A2ARequestListener, agents: ServedAgents, options: ServiceListingOptions): A2ARequestListener {
  const listings = serviceListings(agents, options);
  if (!listings) return inner;
  return (req, res, next) => {
    const answer = listings(nodeArrivingRequest(req), routingPath(req.url));
    if (answer) writeNodeResult(res, answer);
    else inner(req, res, next);
  };
}
