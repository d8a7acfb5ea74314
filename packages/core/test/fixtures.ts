import type { AgentCard } from '@a2a-polyglot/model';
import { testAgentCard } from '@a2a-polyglot/testing';

/** A minimal card with every capability on. */
export function testCard(overrides: Partial<AgentCard> = {}): AgentCard {
  return testAgentCard(overrides);
}
