import { type HttpExchangeBody, jsonResult } from '@a2a-polyglot/http';
import { WELL_KNOWN_CARD_PATH } from './agent-card.js';
import type { ArrivingRequest } from './arriving-request.js';
import { beginListing, type ServedAgents } from './listing.js';
import { normalizeBasePath, normalizeMountPath, type A2AHttpOptions } from './options.js';

/** Where RFC 9727 puts the API catalog (an RFC 8615 well-known URI). */
export const API_CATALOG_PATH = '/.well-known/api-catalog';
/** The profile URI RFC 9727 gives a linkset that is an API catalog. */
export const API_CATALOG_PROFILE = 'https://www.rfc-editor.org/info/rfc9727';
/** The catalog's media type: a JSON linkset (RFC 9264 §4.2) with the RFC 9727 profile. */
export const API_CATALOG_MEDIA_TYPE = `application/linkset+json; profile="${API_CATALOG_PROFILE}"`;

/** One link target of a linkset (RFC 9264 §4.2.4). */
interface LinkTarget {
  readonly href: string;
  readonly type?: string;
  readonly title?: string;
}

/**
 * The answer to `GET` and `HEAD /.well-known/api-catalog` (RFC 9727): a linkset
 * (`application/linkset+json`, profile RFC 9727) of every agent API the server serves: the
 * agent at the root, then each mounted agent. Each API is an `anchor` (its HTTP base URL,
 * `{mount}{basePath}`, under which its JSON-RPC, REST and WebSocket endpoints live) whose
 * `service-desc` link is its agent card (the machine-readable description of an A2A agent);
 * a first entry anchored at the catalog lists them all as `item`s (the RFC's bookmark form).
 * Both answers carry `Link: <catalog>; rel="api-catalog"`, which RFC 9727 §2 asks of HEAD.
 * Why: a generic API crawler knows this well-known URI and RFC 8631 relations, not A2A's
 * card paths nor our `/agents` listing. Undefined for other paths. Runtime-free.
 */
export function apiCatalogAnswer(req: ArrivingRequest, path: string, agents: ServedAgents): HttpExchangeBody | undefined {
  if (path !== API_CATALOG_PATH) return undefined;
  const listing = beginListing(req, agents, 'The API catalog');
  if (listing.answer) return listing.answer;
  const catalogUrl = `${listing.base}${API_CATALOG_PATH}`;
  const apis = servedApis(agents).map((agent) => {
    const mountPath = normalizeMountPath(agent.mountPath);
    const title = agent.handler.getAgentCard().name;
    return { title, anchor: `${listing.base}${mountPath}${normalizeBasePath(agent.basePath)}`, cardUrl: `${listing.base}${mountPath}${WELL_KNOWN_CARD_PATH}` };
  });
  const items: LinkTarget[] = apis.map(({ anchor, title }) => ({ href: anchor, title }));
  const linkset = [
    { anchor: catalogUrl, item: items },
    ...apis.map(({ anchor, cardUrl, title }) => ({ anchor, 'service-desc': [{ href: cardUrl, type: 'application/json', title } satisfies LinkTarget] })),
  ];
  return jsonResult(200, { linkset }, API_CATALOG_MEDIA_TYPE, { ...listing.headers, link: `<${catalogUrl}>; rel="api-catalog"` });
}

/** The root agent, then every listed agent with a mount of its own (the root is listed itself when nothing is mounted). */
function servedApis(agents: ServedAgents): A2AHttpOptions[] {
  return [agents.root, ...agents.listed().filter((agent) => normalizeMountPath(agent.mountPath) !== '')];
}
