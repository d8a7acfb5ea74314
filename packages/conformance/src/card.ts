import { AgentCard } from '@a2a-polyglot/model';
import type { Json } from './normalize.js';

/**
 * The card every scenario starts from: all capabilities a scenario usually needs on
 * (streaming, push), the extended card off. Scenarios override members with their `card`.
 */
export const DEFAULT_CARD_JSON: { readonly [key: string]: Json } = {
  name: 'conformance-agent',
  description: 'Scripted A2A conformance agent: does what the request metadata says.',
  supportedInterfaces: [],
  version: '1.0.0',
  capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: false },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
};

/** Builds an AgentCard from JSON overrides merged (objects deeply, arrays replaced) over `base`. */
export function buildCard(overrides: { readonly [key: string]: Json } | undefined, base: { readonly [key: string]: Json } = DEFAULT_CARD_JSON): AgentCard {
  return AgentCard.fromJSON(mergeJson(base, overrides ?? {}));
}

/** Deep merge of JSON objects; arrays and scalars in `over` replace those in `base`. */
export function mergeJson(base: Json, over: Json): Json {
  if (!isObj(base) || !isObj(over)) return over;
  const out: Record<string, Json> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const existing = out[k];
    out[k] = existing !== undefined ? mergeJson(existing, v) : v;
  }
  return out;
}

function isObj(v: Json): v is { [key: string]: Json } {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
