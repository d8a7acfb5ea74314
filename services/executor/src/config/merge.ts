/**
 * Layering: how a partial configuration overrides a complete one (scalars replace, sections
 * merge, lists replace), and the card defaults of each entry in `agents`.
 */
import { BUILTIN_BRIDGES } from '@a2a-polyglot/bridges';
import { DEMO_INPUT_MODES } from '../demo-agent.js';
import { cardKeysOf, markCardKeys, setCardKeys } from './card-keys.js';
import { configFileSchema } from './schema/config-file.js';
import { mergeBySchema } from './schema/setting.js';
import type { AgentEntryConfig, ConfigLayer, ExecutorConfig } from './types.js';

/**
 * Layers `over` onto `base` as the schema shapes them: scalars replace, sections merge at any
 * depth, lists (skills, modes) and maps (API keys) replace; each entry of `agents` gets its
 * per-entry defaults.
 */
export function mergeConfig(base: ExecutorConfig, over: ConfigLayer): ExecutorConfig {
  const { agents, ...rest } = over;
  const merged = mergeBySchema(configFileSchema, base, rest) as ExecutorConfig;
  // Which card keys were set travels with the card (see card-keys.ts): an agent module's card fills the rest.
  if (rest.agent) markCardKeys(merged.agent, [...setCardKeys(base.agent), ...cardKeysOf(rest.agent)]);
  return agents ? { ...merged, agents: agents.map(withAgentDefaults) } : merged;
}

/**
 * A configured agent with every card field filled: the name defaults to the id, a chat skill
 * and plain text modes are assumed, streaming is on and push notifications are off.
 */
export function withAgentDefaults(entry: NonNullable<ConfigLayer['agents']>[number]): AgentEntryConfig {
  const name = entry.name ?? entry.id;
  const resolved: AgentEntryConfig = {
    id: entry.id,
    handler: entry.handler,
    settings: entry.settings ?? {},
    backgroundExecution: entry.backgroundExecution ?? true,
    retryable: entry.retryable ?? false,
    ...(entry.a2aLite && { a2aLite: entry.a2aLite === true ? {} : entry.a2aLite }),
    ...(entry.auth && { auth: entry.auth }),
    ...(entry.rateLimit && { rateLimit: entry.rateLimit }),
    ...(entry.maxConcurrentTasks !== undefined && { maxConcurrentTasks: entry.maxConcurrentTasks }),
    ...(entry.maxConcurrentTasksPerIdentity !== undefined && { maxConcurrentTasksPerIdentity: entry.maxConcurrentTasksPerIdentity }),
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
  };
  return markCardKeys(resolved, cardKeysOf(entry));
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
