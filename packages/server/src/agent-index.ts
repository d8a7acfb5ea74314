import { type HttpExchangeBody, jsonResult } from '@a2a-polyglot/http';
import { WELL_KNOWN_CARD_PATH } from './agent-card.js';
import type { ArrivingRequest } from './arriving-request.js';
import { beginListing } from './listing.js';
import { normalizeMountPath, type A2AHttpOptions } from './options.js';

/** One agent in the operator listing. */
export interface AgentIndexEntry {
  /** The last segment of the agent's mount path (`/agents/{id}` in the executor); `""` for an agent served only at the root. */
  readonly id: string;
  /** The card's name. */
  readonly name: string;
  /** Absolute URL of the agent's card. */
  readonly cardUrl: string;
  /** True for the agent that is also served at the root paths. */
  readonly default: boolean;
}

/**
 * The answer to `GET <path>`: the agents a server hosts: `{"agents": [{id, name, cardUrl,
 * default}]}`, in the order of `index.mounts` (the mounted agents; a server without mounts
 * passes its root agent, mount path `''`, so the listing has one entry). Why: with several
 * agents behind one listener, an operator (or a client that knows only the host) otherwise has
 * to know every id to find the cards; and one listing in both modes means a tool need not know
 * which mode a server runs in. It lists what the cards already publish, so it is as public as
 * they are. Undefined for other paths. Runtime-free.
 */
export function agentIndexAnswer(
  req: ArrivingRequest,
  path: string,
  index: { readonly path: string; readonly root: A2AHttpOptions; readonly mounts: readonly A2AHttpOptions[]; readonly prefix?: string },
): HttpExchangeBody | undefined {
  if (path !== index.path) return undefined;
  const listing = beginListing(req, index, 'The agent list');
  if (listing.answer) return listing.answer;
  const agents: AgentIndexEntry[] = index.mounts.map((mount) => {
    const mountPath = normalizeMountPath(mount.mountPath);
    return {
      id: mountPath.slice(mountPath.lastIndexOf('/') + 1),
      name: mount.handler.getAgentCard().name,
      cardUrl: `${listing.base}${mountPath}${WELL_KNOWN_CARD_PATH}`,
      default: mount.handler === index.root.handler,
    };
  });
  return jsonResult(200, { agents }, 'application/json', listing.headers);
}
