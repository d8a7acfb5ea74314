import type { AgentCard, SecurityRequirement, SecurityScheme } from '@a2a-polyglot/model';
import { authenticationFor, JWT_SCHEME } from './authentication.js';
import type { ExecutorConfig } from './config.js';

/** Name of the security scheme the card declares when API keys are configured. */
export const API_KEY_SCHEME = 'apiKey';
/** Name of the bearer-token alternative (the same keys, sent as `Authorization: Bearer`). */
export const BEARER_SCHEME = 'bearer';
/** Name of the mutual-TLS scheme (a client certificate as the identity, `tls.clientCertIdentity`). */
export const MTLS_SCHEME = 'mtls';

/**
 * Builds the public AgentCard from configuration. `supportedInterfaces` stays empty: the
 * server knows the public URLs (request host or `publicBaseUrl`) and fills them in per
 * request. With API keys or JWTs configured the card declares how to send them, so clients
 * learn the scheme from discovery instead of from a 401.
 */
export function buildAgentCard(
  config: Pick<ExecutorConfig, 'agent' | 'auth'> & { readonly tls?: Pick<ExecutorConfig['tls'], 'clientCertIdentity'> },
): AgentCard {
  const { agent, auth } = config;
  const keysOn = Object.keys(auth.apiKeys).length > 0;
  const jwtScheme = authenticationFor(auth).jwtScheme;
  const securitySchemes: Record<string, SecurityScheme> = {
    ...(jwtScheme && { [JWT_SCHEME]: jwtScheme }),
    ...(keysOn && {
      [API_KEY_SCHEME]: { scheme: { $case: 'apiKeySecurityScheme', value: { description: 'Static API key', location: 'header', name: auth.header } } },
      [BEARER_SCHEME]: {
        scheme: { $case: 'httpAuthSecurityScheme', value: { description: 'The same API key as a bearer token', scheme: 'Bearer', bearerFormat: '' } },
      },
    }),
    ...(config.tls?.clientCertIdentity && {
      [MTLS_SCHEME]: {
        scheme: {
          $case: 'mtlsSecurityScheme',
          value: { description: 'TLS client certificate signed by the service CA (gRPC); its common name is the caller' },
        },
      },
    }),
  };
  // Any one scheme satisfies the requirement (the list is an OR of alternatives).
  const securityRequirements: SecurityRequirement[] = Object.keys(securitySchemes).map((name) => ({ schemes: { [name]: { list: [] } } }));
  return {
    name: agent.name,
    description: agent.description,
    supportedInterfaces: [],
    provider: agent.provider && { organization: agent.provider.organization, url: agent.provider.url },
    version: agent.version,
    documentationUrl: agent.documentationUrl,
    iconUrl: agent.iconUrl,
    capabilities: {
      streaming: agent.capabilities.streaming,
      pushNotifications: agent.capabilities.pushNotifications,
      extendedAgentCard: agent.capabilities.extendedAgentCard,
      extensions: [],
    },
    securitySchemes,
    securityRequirements,
    defaultInputModes: [...agent.defaultInputModes],
    defaultOutputModes: [...agent.defaultOutputModes],
    skills: agent.skills.map((s) => ({
      id: s.id,
      name: s.name,
      description: s.description,
      tags: [...(s.tags ?? [])],
      examples: [...(s.examples ?? [])],
      inputModes: [...(s.inputModes ?? [])],
      outputModes: [...(s.outputModes ?? [])],
      securityRequirements: [],
    })),
    signatures: [],
  };
}
