import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestPath, routingPath } from '@a2a-polyglot/http';
import { serveAgentIndex } from './agent-index.js';
import { createA2ARequestListener, type A2ARequestListener } from './listener.js';
import { normalizeMountPath, type A2AHttpOptions } from './options.js';

/**
 * One listener for several agents: each of `mounts` (a listener's options with a non-root
 * `mountPath`) gets the requests under its prefix, the longest prefix winning; everything
 * else goes to `root`. Why here and not in each host: the card URLs, the JSON-RPC path and
 * the REST routes of an agent all depend on its prefix, and only the listener builds them.
 * With `indexPath` (e.g. `/agents`), `GET indexPath` lists the mounted agents (see
 * `serveAgentIndex`).
 */
export function createMountedListener(root: A2AHttpOptions, mounts: readonly A2AHttpOptions[], options: { readonly indexPath?: string } = {}): A2ARequestListener {
  const rootListener = createA2ARequestListener(root);
  const byPrefix = mounts
    .map((options) => {
      const prefix = normalizeMountPath(options.mountPath);
      if (prefix === '') throw new Error('Every mounted agent needs a non-root mountPath');
      return { prefix, listener: createA2ARequestListener(options) };
    })
    .sort((a, b) => b.prefix.length - a.prefix.length);
  const seen = new Set<string>();
  for (const { prefix } of byPrefix) {
    if (seen.has(prefix)) throw new Error(`Two mounted agents share the mountPath ${prefix}`);
    seen.add(prefix);
  }
  const index = options.indexPath === undefined ? undefined : { path: normalizeMountPath(options.indexPath), root, mounts };
  return (req: IncomingMessage, res: ServerResponse) => {
    if (index && serveAgentIndex(req, res, routingPath(req.url), index)) return;
    const path = requestPath(req.url);
    const mounted = byPrefix.find(({ prefix }) => path === prefix || path.startsWith(`${prefix}/`));
    (mounted?.listener ?? rootListener)(req, res);
  };
}
