import type { AgentCard, StreamResponse, TaskPushNotificationConfig } from '@a2a-polyglot/model';
import { testAgentCard } from './agent-card.js';
import type { Gates } from './gates.js';
import { type ScriptedAgent, scriptedAgent } from './scripted-agent.js';

/** The optional extension of {@link bindingTestCard}: a client activating it sees it echoed in `A2A-Extensions`. */
export const TEST_EXTENSION = 'https://example.com/ext/echo';

/**
 * The card of the HTTP binding tests (JSON-RPC, REST, the server): every capability on and
 * one optional extension, so one fixture serves the tests of each binding and of the listener
 * that mounts them.
 */
export function bindingTestCard(overrides: Partial<AgentCard> = {}): AgentCard {
  return testAgentCard({
    name: 'test agent',
    description: 'scripted agent for binding tests',
    capabilities: {
      streaming: true,
      pushNotifications: true,
      extendedAgentCard: true,
      extensions: [{ uri: TEST_EXTENSION, description: 'echo', required: false, params: undefined }],
    },
    ...overrides,
  });
}

/** Records push deliveries instead of calling webhooks (structurally the core's `PushSender`). */
export class RecordingPushSender {
  readonly sent: Array<{ config: TaskPushNotificationConfig; event: StreamResponse }> = [];
  async send(config: TaskPushNotificationConfig, event: StreamResponse): Promise<void> {
    this.sent.push({ config, event });
  }
}

/** What {@link bindingHandlerOptions} sets: a subset of the core's `RequestHandlerOptions`, typed by shape. */
export interface BindingHandlerOptions {
  readonly card: AgentCard;
  readonly executor: ScriptedAgent;
  readonly pushSender: RecordingPushSender;
  readonly allowPrivateWebhooks: true;
  readonly extendedCard: () => AgentCard;
}

/**
 * The request handler options of the binding tests: the scripted agent on `gates` behind
 * {@link bindingTestCard}, push deliveries recorded, private webhook addresses allowed, and
 * an extended card named `extended test agent`. Plain options, so this package stays free of
 * the core: a test writes `new RequestHandler({ ...bindingHandlerOptions(gates), ... })`.
 */
export function bindingHandlerOptions(gates: Gates, card: AgentCard = bindingTestCard()): BindingHandlerOptions {
  return {
    card,
    executor: scriptedAgent(gates),
    pushSender: new RecordingPushSender(),
    allowPrivateWebhooks: true,
    extendedCard: () => ({ ...card, name: 'extended test agent' }),
  };
}

/**
 * A v1.0 SendMessageRequest as JSON (ProtoJSON: `ROLE_USER`, `parts: [{ text }]`), what a
 * client puts on the wire of the JSON-RPC and REST bindings; `extra` goes into the message.
 */
export function sendMessageJson(text: string, extra: Record<string, unknown> = {}, configuration?: Record<string, unknown>): Record<string, unknown> {
  return {
    message: { messageId: `m-${Math.random().toString(36).slice(2)}`, role: 'ROLE_USER', parts: [{ text }], ...extra },
    ...(configuration ? { configuration } : {}),
  };
}
