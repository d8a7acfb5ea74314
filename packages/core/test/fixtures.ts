import { Role, SendMessageRequest, type AgentCard, type SendMessageConfiguration } from '@a2a-polyglot/model';
import { testAgentCard } from '@a2a-polyglot/testing';

/** A minimal card with every capability on. */
export function testCard(overrides: Partial<AgentCard> = {}): AgentCard {
  return testAgentCard(overrides);
}

/**
 * A SendMessage request with one user text part, as a binding's decoder hands it to the core:
 * the one builder for tests that only vary the text, the task and the configuration.
 */
export function userSend(
  text: string,
  options: { readonly taskId?: string; readonly configuration?: Partial<SendMessageConfiguration> } = {},
): SendMessageRequest {
  return SendMessageRequest.fromPartial({
    message: { messageId: crypto.randomUUID(), taskId: options.taskId ?? '', role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: text } }] },
    configuration: options.configuration,
  });
}
