import { AgentCard } from '@a2a-polyglot/model';
import { buildAgentCard } from '../src/card.js';
import { resolveConfig } from '../src/config.js';

describe('buildAgentCard', () => {
  it('maps the configured agent fields and leaves the interfaces to the server', () => {
    const card = buildAgentCard(
      resolveConfig({
        agent: {
          name: 'N',
          description: 'D',
          version: '2.0.0',
          provider: { organization: 'Org', url: 'https://org.example' },
          skills: [{ id: 's', name: 'S', description: 'does s', tags: ['t'] }],
          capabilities: { streaming: false, pushNotifications: false },
        },
      }),
    );
    expect(AgentCard.toJSON(card)).toEqual({
      name: 'N',
      description: 'D',
      provider: { organization: 'Org', url: 'https://org.example' },
      version: '2.0.0',
      capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false },
      defaultInputModes: ['text/plain', 'application/json', '*/*'], // the demo's: it notes files and data too
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 's', name: 'S', description: 'does s', tags: ['t'] }],
    });
  });

  it('declares the API-key and bearer schemes only when keys are configured', () => {
    expect(buildAgentCard(resolveConfig()).securityRequirements).toEqual([]);
    const json = AgentCard.toJSON(buildAgentCard(resolveConfig({ auth: { apiKeys: { k: 'alice' } } }))) as Record<string, unknown>;
    expect(json.securitySchemes).toEqual({
      apiKey: { apiKeySecurityScheme: { description: 'Static API key', location: 'header', name: 'x-api-key' } },
      bearer: { httpAuthSecurityScheme: { description: 'The same API key as a bearer token', scheme: 'Bearer' } },
    });
    expect(json.securityRequirements).toEqual([{ schemes: { apiKey: {} } }, { schemes: { bearer: {} } }]); // no scopes: ProtoJSON omits the empty list
  });
});
