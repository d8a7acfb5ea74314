import type { IncomingMessage, ServerResponse } from 'node:http';
import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { sendJson } from '@a2a-polyglot/http';
import { restError } from '@a2a-polyglot/rest';
import { WELL_KNOWN_CARD_PATH } from './agent-card.js';
import { browserAccessCheck, sendAccessRefusal } from './browser-access.js';
import { applyCorsHeaders } from './cors.js';
import { normalizeMountPath, type A2AHttpOptions } from './options.js';
import { publicBaseUrl } from './public-url.js';

/** One agent in the operator listing. */
export interface AgentIndexEntry {
  /** The last segment of the agent's mount path (`/agents/{id}` in the executor). */
  readonly id: string;
  /** The card's name. */
  readonly name: string;
  /** Absolute URL of the agent's card. */
  readonly cardUrl: string;
  /** True for the agent that is also served at the root paths. */
  readonly default: boolean;
}

/**
 * Answers `GET <path>` with the agents a server hosts under mounts: `{"agents": [{id, name,
 * cardUrl, default}]}`, in mount order. Why: with several agents behind one listener, an
 * operator (or a client that knows only the host) otherwise has to know every id to find the
 * cards. It lists what the cards already publish, so it is as public as they are. Returns
 * false for other paths.
 */
export function serveAgentIndex(
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  index: { readonly path: string; readonly root: A2AHttpOptions; readonly mounts: readonly A2AHttpOptions[] },
): boolean {
  if (path !== index.path) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    const error = restError(new A2AError(A2AErrorCode.MethodNotFound, 'The agent list is read with GET'), undefined, 405);
    sendJson(res, 405, error.body, 'application/json', { allow: 'GET, HEAD' });
    return true;
  }
  const access = browserAccessCheck(index.root)(req, true);
  if (!access.ok) {
    sendAccessRefusal(res, access.reason, { logger: index.root.logger });
    return true;
  }
  if (index.root.cors ?? true) applyCorsHeaders(res, access.allowOrigin);
  const base = publicBaseUrl(req, index.root.publicBaseUrl, index.root.trustProxy ?? false);
  const agents: AgentIndexEntry[] = index.mounts.map((mount) => {
    const mountPath = normalizeMountPath(mount.mountPath);
    return {
      id: mountPath.slice(mountPath.lastIndexOf('/') + 1),
      name: mount.handler.getAgentCard().name,
      cardUrl: `${base}${mountPath}${WELL_KNOWN_CARD_PATH}`,
      default: mount.handler === index.root.handler,
    };
  });
  const vary: Record<string, string> = index.root.publicBaseUrl ? {} : { vary: index.root.trustProxy ? 'Host, X-Forwarded-Host, X-Forwarded-Proto' : 'Host' };
  sendJson(res, 200, { agents }, 'application/json', vary);
  return true;
}
