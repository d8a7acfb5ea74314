/**
 * Layering: how a partial configuration overrides a complete one (scalars replace, sections
 * merge, lists replace), and the card defaults of each entry in `agents`.
 */
import { BUILTIN_BRIDGES } from '@a2a-polyglot/bridges';
import { DEMO_INPUT_MODES } from '../demo-agent.js';
import { cardKeysOf, markCardKeys, setCardKeys } from './card-keys.js';
import type { AgentEntryConfig, ExecutorConfig, ExecutorConfigInput } from './types.js';

/** Layers `over` onto `base`: scalars replace, nested objects merge, lists (skills, modes) replace. */
export function mergeConfig(base: ExecutorConfig, over: ExecutorConfigInput): ExecutorConfig {
  const defined = <T extends object>(o: T | undefined): Partial<T> =>
    Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
  const { agent, demo, auth, push, agents, handlers, store, eventLog, lease, agentRegistry, rateLimit, tls, cors, cardSigning, protocol, ...scalars } = over;
  return {
    ...base,
    ...defined(scalars),
    agents: agents ? agents.map(withAgentDefaults) : base.agents,
    handlers: handlers ? { ...handlers } : base.handlers,
    // Which card keys were set travels with the card (see card-keys.ts): an agent module's card fills the rest.
    agent: markCardKeys(
      {
        ...base.agent,
        ...defined(agent),
        capabilities: { ...base.agent.capabilities, ...defined(agent?.capabilities) },
      },
      [...setCardKeys(base.agent), ...cardKeysOf(agent)],
    ),
    demo: { ...base.demo, ...defined(demo) },
    auth: { ...base.auth, ...defined(auth) },
    push: { ...base.push, ...defined(push) },
    store: { ...base.store, ...defined(store) },
    agentRegistry: { ...base.agentRegistry, ...defined(agentRegistry) },
    eventLog: { ...base.eventLog, ...defined(eventLog) },
    lease: { ...base.lease, ...defined(lease) },
    rateLimit: { ...base.rateLimit, ...defined(rateLimit) },
    tls: { ...base.tls, ...defined(tls) },
    cors: { ...base.cors, ...defined(cors) },
    cardSigning: { ...base.cardSigning, ...defined(cardSigning) },
    protocol: { ...base.protocol, ...defined(protocol) },
  } as ExecutorConfig;
}

/**
 * A configured agent with every card field filled: the name defaults to the id, a chat skill
 * and plain text modes are assumed, streaming is on and push notifications are off.
 */
export function withAgentDefaults(entry: NonNullable<ExecutorConfigInput['agents']>[number]): AgentEntryConfig {
  const name = entry.name ?? entry.id;
  return markCardKeys<AgentEntryConfig>(
    {
      id: entry.id,
      handler: entry.handler,
      settings: entry.settings ?? {},
      backgroundExecution: entry.backgroundExecution ?? true,
      ...(entry.a2aLite && { a2aLite: entry.a2aLite === true ? {} : entry.a2aLite }),
      name,
      description: entry.description ?? `${name}, served through the ${entry.handler} handler`,
      version: entry.version ?? '1.0.0',
      provider: entry.provider,
      documentationUrl: entry.documentationUrl,
      iconUrl: entry.iconUrl,
      skills: entry.skills ?? [{ id: 'chat', name: 'Chat', description: 'Send a message and get an answer.', tags: ['chat'] }],
      capabilities: {
        streaming: true,
        pushNotifications: false,
        extendedAgentCard: false,
        ...Object.fromEntries(Object.entries(entry.capabilities ?? {}).filter(([, v]) => v !== undefined)),
      },
      defaultInputModes: entry.defaultInputModes ?? handlerInputModes(entry.handler),
      defaultOutputModes: entry.defaultOutputModes ?? ['text/plain'],
      acceptAnyInputMode: entry.acceptAnyInputMode ?? false,
    },
    cardKeysOf(entry),
  );
}

/**
 * The input modes of an agent whose entry sets none: what its handler reads (`Bridge.inputModes`
 * of the built-in bridges, the demo's modes), else plain text. Handlers registered by a
 * `startExecutor` caller are not known here: their agents declare their modes themselves.
 */
function handlerInputModes(handler: string): readonly string[] {
  if (handler === 'demo') return DEMO_INPUT_MODES;
  return BUILTIN_BRIDGES.find((b) => b.name === handler)?.inputModes ?? ['text/plain'];
}
