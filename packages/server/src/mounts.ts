import type { IncomingMessage, ServerResponse } from 'node:http';
import { routingPath } from '@a2a-polyglot/http';
import { AgentMounts } from './agent-mounts.js';
import { serveAgentIndex } from './agent-index.js';
import { createA2ARequestListener, type A2ARequestListener } from './listener.js';
import { normalizeMountPath, type A2AHttpOptions } from './options.js';

/**
 * One listener for several agents: each of `mounts` (a listener's options with a non-root
 * `mountPath`, or an {@link AgentMounts} table that may change while serving) gets the
 * requests under its prefix, the longest prefix winning; everything else goes to `root`.
 * Why here and not in each host: the card URLs, the JSON-RPC path and the REST routes of an
 * agent all depend on its prefix, and only the listener builds them. With `indexPath` (e.g.
 * `/agents`), `GET indexPath` lists the mounted agents (see `serveAgentIndex`).
 */
export function createMountedListener(
  root: A2AHttpOptions,
  mounts: readonly A2AHttpOptions[] | AgentMounts,
  options: { readonly indexPath?: string } = {},
): A2ARequestListener {
  const rootListener = createA2ARequestListener(root);
  const table = mounts instanceof AgentMounts ? mounts : new AgentMounts(mounts);
  const index =
    options.indexPath === undefined
      ? undefined
      : {
          path: normalizeMountPath(options.indexPath),
          root,
          get mounts() {
            return table.list();
          },
        };
  return (req: IncomingMessage, res: ServerResponse) => {
    if (index && serveAgentIndex(req, res, routingPath(req.url), index)) return;
    (table.match(req.url)?.listener ?? rootListener)(req, res);
  };
}
