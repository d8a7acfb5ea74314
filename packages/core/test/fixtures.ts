import type { AgentCard } from '@a2a-polyglot/model';

/** A minimal card with every capability on. */
export function testCard(overrides: Partial<AgentCard> = {}): AgentCard {
  return {
    name: 'test',
    description: 'test agent',
    supportedInterfaces: [],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
    signatures: [],
    ...overrides,
  };
}
