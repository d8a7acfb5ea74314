import type * as v1 from '@a2a-polyglot/model';
import type * as v03 from '@a2a-polyglot/model/v03';

/**
 * Agent cards between v1.0 (`supportedInterfaces`, `securityRequirements`,
 * `capabilities.extendedAgentCard`) and the v0.3 proto (`url` + `preferred_transport` +
 * `additional_interfaces`, `security`, `supports_authenticated_extended_card`,
 * `protocol_version`). Used by v0.3 GetAgentCard over gRPC and `GET /v1/card` over REST.
 */

/** The protocol version a v0.3 card states (the v0.3 schema keeps the patch number). */
export const V03_CARD_PROTOCOL_VERSION = '0.3.0';

/** True for an interface a v0.3 client can talk to and reach this agent by (v0.3 requests carry no tenant). */
function isV03Interface(i: v1.AgentInterface): boolean {
  return (i.protocolVersion === '0.3' || i.protocolVersion.startsWith('0.3.')) && i.tenant === '';
}

/** v1.0 OAuth flows → v0.3 (device-code flows and `pkceRequired` have no v0.3 form). */
function oauthFlowsToV03(flows: v1.OAuthFlows | undefined): v03.OAuthFlows | undefined {
  const f = flows?.flow;
  if (!f) return flows && { flow: undefined };
  switch (f.$case) {
    case 'authorizationCode': {
      const { pkceRequired: _pkce, ...rest } = f.value;
      return { flow: { $case: 'authorizationCode', value: rest } };
    }
    case 'clientCredentials':
    case 'implicit':
    case 'password':
      return { flow: f } as v03.OAuthFlows;
    default:
      return { flow: undefined };
  }
}

/** v0.3 OAuth flows → v1.0. */
function oauthFlowsToV1(flows: v03.OAuthFlows | undefined): v1.OAuthFlows | undefined {
  const f = flows?.flow;
  if (f?.$case === 'authorizationCode') return { flow: { $case: 'authorizationCode', value: { ...f.value, pkceRequired: false } } };
  return flows && ({ flow: f } as v1.OAuthFlows);
}

/** v1.0 security scheme → v0.3 (identical members except OAuth flows). */
function securitySchemeToV03(scheme: v1.SecurityScheme): v03.SecurityScheme {
  const s = scheme.scheme;
  if (s?.$case === 'oauth2SecurityScheme') return { scheme: { $case: 'oauth2SecurityScheme', value: { ...s.value, flows: oauthFlowsToV03(s.value.flows) } } };
  return scheme as v03.SecurityScheme;
}

/** v0.3 security scheme → v1.0. */
function securitySchemeToV1(scheme: v03.SecurityScheme): v1.SecurityScheme {
  const s = scheme.scheme;
  if (s?.$case === 'oauth2SecurityScheme') return { scheme: { $case: 'oauth2SecurityScheme', value: { ...s.value, flows: oauthFlowsToV1(s.value.flows) } } };
  return scheme as v1.SecurityScheme;
}

function mapValues<A, B>(record: { [key: string]: A }, f: (a: A) => B): { [key: string]: B } {
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, f(v)]));
}

/**
 * v1.0 card → v0.3 card. `url` / `preferred_transport` come from the first interface that
 * speaks v0.3 (the first interface at all when none does), `additional_interfaces` lists every
 * v0.3 interface (the main one included, as the v0.3 spec recommends).
 */
export function agentCardToV03(card: v1.AgentCard): v03.AgentCard {
  const v03Interfaces = card.supportedInterfaces.filter(isV03Interface);
  const main = v03Interfaces[0] ?? card.supportedInterfaces[0];
  return {
    protocolVersion: V03_CARD_PROTOCOL_VERSION,
    name: card.name,
    description: card.description,
    url: main?.url ?? '',
    preferredTransport: main?.protocolBinding ?? '',
    additionalInterfaces: v03Interfaces.map((i) => ({ url: i.url, transport: i.protocolBinding })),
    provider: card.provider,
    version: card.version,
    documentationUrl: card.documentationUrl ?? '',
    capabilities: {
      streaming: card.capabilities?.streaming ?? false,
      pushNotifications: card.capabilities?.pushNotifications ?? false,
      extensions: card.capabilities?.extensions ?? [],
    },
    securitySchemes: mapValues(card.securitySchemes, securitySchemeToV03),
    security: card.securityRequirements,
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map(({ securityRequirements, ...skill }) => ({ ...skill, security: securityRequirements })),
    supportsAuthenticatedExtendedCard: card.capabilities?.extendedAgentCard ?? false,
    signatures: card.signatures,
    iconUrl: card.iconUrl ?? '',
  };
}

/**
 * v0.3 card → v1.0 card: the main endpoint first, then the additional interfaces not equal to
 * it, every one with protocol version 0.3 (a v0.3 card describes v0.3 endpoints only).
 */
export function agentCardToV1(card: v03.AgentCard): v1.AgentCard {
  const main = { url: card.url, transport: card.preferredTransport || 'JSONRPC' };
  const others = card.additionalInterfaces.filter((i) => i.url !== main.url || i.transport !== main.transport);
  return {
    name: card.name,
    description: card.description,
    supportedInterfaces: [main, ...others].map((i) => ({ url: i.url, protocolBinding: i.transport, tenant: '', protocolVersion: '0.3' })),
    provider: card.provider,
    version: card.version,
    documentationUrl: card.documentationUrl || undefined,
    capabilities: card.capabilities && {
      streaming: card.capabilities.streaming,
      pushNotifications: card.capabilities.pushNotifications,
      extensions: card.capabilities.extensions,
      extendedAgentCard: card.supportsAuthenticatedExtendedCard,
    },
    securitySchemes: mapValues(card.securitySchemes, securitySchemeToV1),
    securityRequirements: card.security,
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: card.skills.map(({ security, ...skill }) => ({ ...skill, securityRequirements: security })),
    signatures: card.signatures,
    iconUrl: card.iconUrl || undefined,
  };
}
