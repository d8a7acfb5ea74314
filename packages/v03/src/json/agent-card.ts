import { isJsonObject, withoutKeys, type JsonObject } from './json-object.js';

/**
 * The v0.3 AgentCard (spec §12.5) built from the v1.0 card JSON. v0.3 clients read the
 * endpoint from top-level `url` + `preferredTransport` and pick others from
 * `additionalInterfaces`; v1.0 clients read `supportedInterfaces`.
 */

/** The `protocolVersion` a v0.3 card declares (the v0.3 schema's default, with patch). */
export const V03_CARD_PROTOCOL_VERSION = '0.3.0';

/**
 * The top-level members only a v0.3 card has (what {@link v03CardEndpoints} gives): a reader
 * of the merged card sets them aside to get the v1.0 card back.
 */
export const V03_CARD_MEMBERS: readonly string[] = [
  'protocolVersion',
  'url',
  'preferredTransport',
  'additionalInterfaces',
  'supportsAuthenticatedExtendedCard',
];

/** Transports a v0.3 card can name (custom bindings such as our WebSocket have no v0.3 form). */
const V03_TRANSPORTS = ['JSONRPC', 'HTTP+JSON', 'GRPC'];

interface V03Interface {
  readonly url: string;
  readonly transport: string;
}

/**
 * True for an entry a v0.3 client can follow and still reach the card's agent: it declares
 * protocol version 0.3 (a 1.0-only endpoint need not speak 0.3; on our gRPC port the 1.0 and 0.3
 * services even differ) and names no tenant (v0.3 requests have no tenant field, so a v0.3
 * client that followed a tenant-addressed entry would reach whatever agent answers without
 * one: on a multi-agent server, the default agent).
 */
function reachableOverV03(entry: JsonObject): boolean {
  const version = typeof entry.protocolVersion === 'string' ? entry.protocolVersion : '';
  const tenant = typeof entry.tenant === 'string' ? entry.tenant : '';
  return (version === '0.3' || version.startsWith('0.3.')) && tenant === '';
}

/**
 * `url`, `preferredTransport`, `additionalInterfaces` (every JSONRPC / HTTP+JSON / GRPC entry of
 * `supportedInterfaces` a v0.3 client can follow to this agent, see {@link reachableOverV03},
 * once per url and transport; v0.3 REST clients append `/v1` to the HTTP+JSON url themselves),
 * `protocolVersion` and `supportsAuthenticatedExtendedCard`: the top-level members a v0.3
 * client needs. JSON-RPC is preferred, as the v0.3 default transport. Why filter: v0.3
 * clients take every entry of `additionalInterfaces` as a v0.3 endpoint of this agent, so an
 * entry that is not would send their tasks elsewhere without telling them.
 */
export function v03CardEndpoints(card: JsonObject): JsonObject {
  const seen = new Set<string>();
  const interfaces: V03Interface[] = [];
  for (const entry of Array.isArray(card.supportedInterfaces) ? card.supportedInterfaces : []) {
    if (!isJsonObject(entry) || typeof entry.url !== 'string' || typeof entry.protocolBinding !== 'string') continue;
    if (!V03_TRANSPORTS.includes(entry.protocolBinding) || !reachableOverV03(entry)) continue;
    const key = `${entry.protocolBinding} ${entry.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    interfaces.push({ url: entry.url, transport: entry.protocolBinding });
  }
  const preferred = interfaces.find((i) => i.transport === 'JSONRPC') ?? interfaces[0];
  const capabilities = isJsonObject(card.capabilities) ? card.capabilities : {};
  return {
    protocolVersion: V03_CARD_PROTOCOL_VERSION,
    url: preferred?.url ?? '',
    preferredTransport: preferred?.transport ?? 'JSONRPC',
    additionalInterfaces: interfaces,
    supportsAuthenticatedExtendedCard: capabilities.extendedAgentCard === true,
  };
}

/** A pure v0.3 AgentCard from the v1.0 card JSON. */
export function agentCardToV03(card: JsonObject): JsonObject {
  const capabilities = isJsonObject(card.capabilities) ? card.capabilities : {};
  return withoutKeys(card, ['supportedInterfaces', 'capabilities', 'securitySchemes', 'securityRequirements', 'skills'], {
    ...v03CardEndpoints(card),
    capabilities: withoutKeys(capabilities, ['extendedAgentCard']),
    securitySchemes: isJsonObject(card.securitySchemes) ? mapValues(card.securitySchemes, securitySchemeToV03) : undefined,
    security: securityToV03(card.securityRequirements),
    skills: Array.isArray(card.skills) ? card.skills.map(skillToV03) : [],
  });
}

/**
 * The v1.0 card plus the v0.3 top-level members ({@link v03CardEndpoints}), so one document
 * serves clients of both generations (what a2a-python serves). Security is given in both
 * forms where their names differ: `security` beside `securityRequirements` (card and skills),
 * and each security scheme object carries its v0.3 members (`type`, `in`, ...) beside its v1.0
 * oneof member, so a v0.3 client that parses schemes by `type` reads the card too, while v1.0
 * readers, which parse cards leniently, see their form.
 */
export function mergedAgentCard(card: JsonObject): JsonObject {
  const schemes = isJsonObject(card.securitySchemes) ? card.securitySchemes : undefined;
  return withoutKeys(card, [], {
    ...v03CardEndpoints(card),
    securitySchemes: schemes && mapValues(schemes, (scheme) => ({ ...(securitySchemeToV03(scheme) as JsonObject), ...(isJsonObject(scheme) ? scheme : {}) })),
    security: securityToV03(card.securityRequirements),
    skills: Array.isArray(card.skills)
      ? card.skills.map((skill) => (isJsonObject(skill) ? withoutKeys(skill, [], { security: securityToV03(skill.securityRequirements) }) : skill))
      : undefined,
  });
}

/**
 * A v0.3 AgentCard as v1.0 card JSON (for clients and drivers that read v0.3 servers): `url` /
 * `preferredTransport` and `additionalInterfaces` become `supportedInterfaces` with
 * `protocolVersion` 0.3, the preferred one first; `supportsAuthenticatedExtendedCard` moves into
 * `capabilities.extendedAgentCard`; security in v1.0 form.
 */
export function agentCardFromV03(card: JsonObject): JsonObject {
  const capabilities = isJsonObject(card.capabilities) ? card.capabilities : {};
  const interfaces: JsonObject[] = [];
  const add = (url: unknown, binding: unknown) => {
    if (typeof url !== 'string' || url === '' || typeof binding !== 'string') return;
    if (!interfaces.some((i) => i.url === url && i.protocolBinding === binding)) interfaces.push({ url, protocolBinding: binding, protocolVersion: '0.3' });
  };
  add(card.url, card.preferredTransport ?? 'JSONRPC');
  for (const entry of Array.isArray(card.additionalInterfaces) ? card.additionalInterfaces : []) if (isJsonObject(entry)) add(entry.url, entry.transport);
  return withoutKeys(card, [...V03_CARD_MEMBERS, 'capabilities', 'securitySchemes', 'security', 'skills'], {
    supportedInterfaces: interfaces.length > 0 ? interfaces : undefined,
    capabilities: withoutKeys(capabilities, ['stateTransitionHistory'], { extendedAgentCard: card.supportsAuthenticatedExtendedCard === true }),
    securitySchemes: isJsonObject(card.securitySchemes) ? mapValues(card.securitySchemes, securitySchemeFromV03) : undefined,
    securityRequirements: securityFromV03(card.security),
    skills: Array.isArray(card.skills) ? card.skills.map(skillFromV03) : undefined,
  });
}

function skillFromV03(skill: unknown): unknown {
  if (!isJsonObject(skill)) return skill;
  return withoutKeys(skill, ['security'], { securityRequirements: securityFromV03(skill.security) });
}

/** `[{name: [scopes]}]` → `[{schemes: {name: {list: [scopes]}}}]`. */
function securityFromV03(security: unknown): JsonObject[] | undefined {
  if (!Array.isArray(security) || security.length === 0) return undefined;
  return security.map((requirement) => ({
    schemes: mapValues(isJsonObject(requirement) ? requirement : {}, (scopes) => ({ list: Array.isArray(scopes) ? scopes : [] })),
  }));
}

/** A v0.3 `type`-tagged SecurityScheme as the oneof-keyed v1.0 one. */
function securitySchemeFromV03(scheme: unknown): unknown {
  const s = isJsonObject(scheme) ? scheme : {};
  switch (s.type) {
    case 'apiKey':
      return { apiKeySecurityScheme: withoutKeys(s, ['type', 'in'], { location: s.in }) };
    case 'http':
      return { httpAuthSecurityScheme: withoutKeys(s, ['type']) };
    case 'oauth2':
      return { oauth2SecurityScheme: withoutKeys(s, ['type']) };
    case 'openIdConnect':
      return { openIdConnectSecurityScheme: withoutKeys(s, ['type']) };
    default:
      return { mtlsSecurityScheme: withoutKeys(s, ['type']) };
  }
}

function skillToV03(skill: unknown): unknown {
  if (!isJsonObject(skill)) return skill;
  return withoutKeys(skill, ['securityRequirements'], { security: securityToV03(skill.securityRequirements) });
}

/** `[{schemes: {name: {list: [scopes]}}}]` → `[{name: [scopes]}]`; absent or empty stays absent. */
function securityToV03(requirements: unknown): JsonObject[] | undefined {
  if (!Array.isArray(requirements) || requirements.length === 0) return undefined;
  return requirements.map((requirement) => {
    const schemes = isJsonObject(requirement) && isJsonObject(requirement.schemes) ? requirement.schemes : {};
    return mapValues(schemes, (scopes) => (isJsonObject(scopes) && Array.isArray(scopes.list) ? scopes.list : []));
  });
}

/** A oneof-keyed v1.0 SecurityScheme as the v0.3 `type`-tagged (OpenAPI-like) object. */
function securitySchemeToV03(scheme: unknown): unknown {
  const s = isJsonObject(scheme) ? scheme : {};
  if (isJsonObject(s.apiKeySecurityScheme)) return withoutKeys(s.apiKeySecurityScheme, ['location'], { type: 'apiKey', in: s.apiKeySecurityScheme.location });
  if (isJsonObject(s.httpAuthSecurityScheme)) return withoutKeys(s.httpAuthSecurityScheme, [], { type: 'http' });
  if (isJsonObject(s.oauth2SecurityScheme)) {
    const flows = isJsonObject(s.oauth2SecurityScheme.flows) ? s.oauth2SecurityScheme.flows : {};
    // v0.3 knows neither the device-code flow nor PKCE.
    const v03Flows = mapValues(withoutKeys(flows, ['deviceCode']), (flow) => (isJsonObject(flow) ? withoutKeys(flow, ['pkceRequired']) : flow));
    return withoutKeys(s.oauth2SecurityScheme, ['flows'], { type: 'oauth2', flows: v03Flows });
  }
  if (isJsonObject(s.openIdConnectSecurityScheme)) return withoutKeys(s.openIdConnectSecurityScheme, [], { type: 'openIdConnect' });
  return withoutKeys(isJsonObject(s.mtlsSecurityScheme) ? s.mtlsSecurityScheme : {}, [], { type: 'mutualTLS' });
}

function mapValues(source: JsonObject, map: (value: unknown) => unknown): JsonObject {
  return Object.fromEntries(Object.entries(source).map(([key, value]) => [key, map(value)]));
}
