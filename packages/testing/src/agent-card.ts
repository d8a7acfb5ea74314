import type { AgentCard } from '@a2a-polyglot/model';

/**
 * A minimal valid agent card for tests (streaming and push notifications on, extended card
 * off, text in and out), with `overrides` on top: one fixture instead of a copy per package.
 */
export function testAgentCard(overrides: Partial<AgentCard> = {}): AgentCard {
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
