import type { IncomingMessage, ServerResponse } from 'node:http';
import { AgentMounts } from './agent-mounts.js';
import { createA2ARequestListener, type A2ARequestListener } from './listener.js';
import type { A2AHttpOptions } from './options.js';
import { type ServiceListingOptions, withServiceListings } from './service-listings.js';

/**
 * One listener for several agents: each of `mounts` (a listener's options with a non-root
 * `mountPath`, or an {@link AgentMounts} table that may change while serving) gets the
 * requests under its prefix, the longest prefix winning; everything else goes to `root`.
 * Why here and not in each host: the card URLs, the JSON-RPC path and the REST routes of an
 * agent all depend on its prefix, and only the listener builds them. With `indexPath` (e.g.
 * `/agents`), `GET indexPath` lists the mounted agents (see `serveAgentIndex`); with
 * `apiCatalog`, `/.well-known/api-catalog` lists the root and every mounted agent (see
 * `serveApiCatalog`).
 */
export function createMountedListener(
  root: A2AHttpOptions,
  mounts: readonly A2AHttpOptions[] | AgentMounts,
  options: ServiceListingOptions = {},
): A2ARequestListener {
  const rootListener = createA2ARequestListener(root);
  const table = mounts instanceof AgentMounts ? mounts : new AgentMounts(mounts);
  const routed: A2ARequestListener = (req: IncomingMessage, res: ServerResponse, next) => (table.match(req.url)?.listener ?? rootListener)(req, res, next);
  return withServiceListings(routed, { root, listed: () => table.list() }, options);
}
