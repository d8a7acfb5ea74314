/**
 * The agent-card sections: `agent` (the single agent's card) and each entry of `agents` (an
 * agent served through a handler, with the same card fields, flat).
 */
import { z } from 'zod';
import { DEMO_INPUT_MODES } from '../../demo-agent.js';
import { authSchema } from './auth.js';
import { rateLimitSchema } from './listener.js';
import { settingMeta } from './setting.js';
import { absoluteUrl, agentId, anyObject, bool, intIn, nonEmpty, positiveBytes, section, str, strings } from './values.js';

/** One skill of a card. */
export const skillSchema = section({
  id: nonEmpty,
  name: nonEmpty,
  description: str,
  tags: strings.optional(),
  examples: strings.optional(),
  inputModes: strings.optional(),
  outputModes: strings.optional(),
});

/** The card fields an operator configures (every one optional in a layer; defaults fill them). */
export const cardShape = {
  name: nonEmpty.optional().describe('The agent name on its card.'),
  description: nonEmpty.optional(),
  version: nonEmpty.optional(),
  provider: section({ organization: nonEmpty, url: absoluteUrl }).optional(),
  documentationUrl: absoluteUrl.optional(),
  iconUrl: absoluteUrl.optional(),
  skills: z.array(skillSchema, { error: 'an array of skills' }).optional(),
  capabilities: section({ streaming: bool.optional(), pushNotifications: bool.optional(), extendedAgentCard: bool.optional() }).optional(),
  defaultInputModes: strings
    .optional()
    .describe('Media types the agent accepts (with skills[].inputModes; */* and type/* are wildcards): other parts are refused with ContentTypeNotSupported.'),
  defaultOutputModes: strings.optional(),
  acceptAnyInputMode: bool.optional().describe('Let parts of any media type reach the agent, whatever its input modes say. Default false.'),
};

/** `retryable` of an agent (the single one, an entry of `agents`): what the run queue does when its worker stops. */
const retryable = bool.describe(
  'With queue.enabled: a task whose worker stopped is run again from its message on another worker instead of failed. Default false, bridges included.',
);

/** `agent`: the single agent's card, with the demo agent's card as its defaults. */
export const agentSchema = section({
  ...cardShape,
  name: nonEmpty.default('A2A Polyglot Demo Agent').describe('The agent name on its card.').register(settingMeta, { env: 'A2A_AGENT_NAME' }),
  description: nonEmpty.default('Echoes your message back as a streamed artifact. Try "ask", "fail" or "slow" to explore the protocol.'),
  version: nonEmpty.default('0.1.0'),
  skills: cardShape.skills.unwrap().default(() => [
    {
      id: 'echo',
      name: 'Echo',
      description: 'Streams "Echo: <your text>" back in chunks of a few words.',
      tags: ['demo', 'echo'],
      examples: ['hello world', 'ask', 'fail', 'slow'],
    },
  ]),
  capabilities: section({
    streaming: bool.default(true),
    pushNotifications: bool.default(true),
    extendedAgentCard: bool.default(false),
  }).prefault({}),
  defaultInputModes: cardShape.defaultInputModes.unwrap().default(() => [...DEMO_INPUT_MODES]),
  defaultOutputModes: cardShape.defaultOutputModes.unwrap().default(() => ['text/plain']),
  acceptAnyInputMode: cardShape.acceptAnyInputMode
    .unwrap()
    .default(false)
    .register(settingMeta, { env: 'A2A_ACCEPT_ANY_INPUT_MODE', flag: '--accept-any-input-mode' }),
  retryable: retryable.default(false).register(settingMeta, { env: 'A2A_AGENT_RETRYABLE' }),
}).describe('The card of the single agent (without "agents").');

/** An agent's A2A-Lite options (`agents[i].a2aLite` as an object). */
export const a2aLiteSchema = section({
  knownAgentsDir: nonEmpty.optional().describe('Directory of the known-agents cache (relative to the config file).'),
  maxCardBytes: positiveBytes.optional().describe('Largest [A2A:card] body accepted, in bytes. Default 65536 (64 KiB).'),
  maxKnownAgents: intIn(1, 1_000_000).optional().describe('Peers the known-agents cache keeps, all callers together. Default 1000.'),
  maxKnownAgentsBytes: positiveBytes
    .optional()
    .describe('Bytes of card JSON the known-agents cache keeps, in memory and in its directory, all callers together. Default 16777216 (16 MiB).'),
  maxKnownAgentsPerPrincipal: intIn(1, 1_000_000)
    .optional()
    .describe('Peers one caller (principal) keeps in the known-agents cache; more evict its own oldest. Default 100.'),
});

/** One entry of `agents`: an id, a handler, its settings (checked by the handler) and the card fields. */
export const agentEntrySchema = section({
  id: agentId.describe('URL segment of /agents/{id}/...'),
  handler: nonEmpty.describe('A handler name: openai-chat, hermes-runs, openclaw-responses, demo, module, a2a-remote, or one you registered.'),
  settings: anyObject.optional().describe("The handler's settings for this agent (highest precedence)."),
  ...cardShape,
  backgroundExecution: bool
    .optional()
    .describe('false: a task follows the call that started it (a caller that leaves cancels it; returnImmediately is refused). Default true.'),
  a2aLite: z
    .union([bool, a2aLiteSchema], {
      error: 'true, false or an object of A2A-Lite options (knownAgentsDir, maxCardBytes, maxKnownAgents, maxKnownAgentsBytes, maxKnownAgentsPerPrincipal)',
    })
    .optional()
    .describe('Read A2A-Lite tags in incoming text and tag the answers for chat-channel peers.'),
  auth: authSchema
    .optional()
    .describe(
      "This agent's own authentication, instead of the service-level auth (same keys; unset keys take their defaults, not the service's). Unset: the service-level auth.",
    ),
  rateLimit: rateLimitSchema
    .optional()
    .describe("This agent's own request budgets, counted on top of the service-level rateLimit (same keys). Unset: only the service-level budgets."),
  retryable: retryable.optional(),
  maxConcurrentTasks: intIn(1, 1_000_000)
    .optional()
    .describe('Most tasks this agent runs at once (per instance); one more send is refused with RESOURCE_EXHAUSTED (HTTP 429 + Retry-After). Unset: no cap.'),
  maxConcurrentTasksPerIdentity: intIn(1, 1_000_000)
    .optional()
    .describe('Most tasks one identity (authenticated principal) runs at once on this agent (per instance); refused alike. Unset: no cap.'),
});

/** `agents`: agents served through handlers, each under `/agents/{id}/...`. */
export const agentsSchema = z.array(agentEntrySchema, { error: 'an array of agents' }).describe('Agents served through handlers, each under /agents/{id}/...');

/** `handlers`: service-wide settings per handler name (below each agent's own `settings`). */
export const handlersSchema = z
  .record(z.string(), anyObject, { error: 'an object' })
  .describe("Service-wide settings per handler name (below each agent's own settings).");
