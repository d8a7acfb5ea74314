import type { AgentCardFields } from '@a2a-polyglot/core';
import { z } from 'zod';
import { markCardKeys, setCardKeys } from './config/card-keys.js';
import { configErrorOf } from './config/schema-errors.js';
import { agentSchema } from './config/schema/agent.js';
import type { AgentCardConfig } from './config/types.js';

/** The module's card wrapped under `card`, so every problem names its path from there (`card.skills[0].id`). */
const moduleCardSchema = z.object({ card: agentSchema });

/**
 * Checks the card an agent module exports against the schema of the config's `agent` section
 * (the same keys and rules as a config file, so nothing new to learn), returning the parsed card or
 * throwing an Error whose message names each bad field (`card.skills[0].id must be ...`).
 */
export function checkModuleCard(raw: unknown): AgentCardFields {
  const parsed = moduleCardSchema.safeParse({ card: raw });
  if (parsed.success) return parsed.data.card as AgentCardFields;
  throw new Error(configErrorOf(parsed.error, '', { card: raw }).message.replace(/^Invalid configuration: /gm, ''));
}

/**
 * The card an agent is served with when its module brings `card`: the module's card is the
 * base, and every key a configuration layer set (file, environment, flags, a registry row's
 * card; see config/card-keys.ts) overrides it; what neither names keeps the built-in default.
 * `capabilities` merges flag by flag. The result is marked as set in full.
 */
export function mergeModuleCard<T extends AgentCardConfig>(configured: T, moduleCard: AgentCardFields): T {
  const set = setCardKeys(configured);
  const fromModule = Object.fromEntries(Object.entries(moduleCard).filter(([key, value]) => value !== undefined && key !== 'capabilities' && !set.has(key)));
  const capabilities = Object.fromEntries(
    Object.entries(moduleCard.capabilities ?? {}).filter(([flag, value]) => value !== undefined && !set.has(`capabilities.${flag}`)),
  );
  const merged = { ...configured, ...fromModule, capabilities: { ...configured.capabilities, ...capabilities } } as T;
  return markCardKeys(merged, Object.keys(merged));
}
