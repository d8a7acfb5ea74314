import { type AgentExecutor, RequestHandler } from '@a2a-polyglot/core';

/** A card with streaming on, push notifications and the extended card off. */
const card = {
  name: 't',
  description: 't',
  supportedInterfaces: [],
  provider: undefined,
  version: '1',
  capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false, extensions: [] },
  securitySchemes: {},
  securityRequirements: [],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
  signatures: [],
};

/** Echoes the message text back as one artifact and completes. */
const echo: AgentExecutor = {
  async execute(ctx) {
    ctx.artifact({ text: ctx.text, lastChunk: true });
    ctx.complete();
  },
};

/** The handler the dispatcher tests call: the echo agent behind the card above, silent. */
export function echoHandler(): RequestHandler {
  return new RequestHandler({ card, executor: echo, logger: { debug() {}, info() {}, warn() {}, error() {} } });
}
