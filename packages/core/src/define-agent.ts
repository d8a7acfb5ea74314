import type { AgentExecutor } from './agent-executor.js';

/** One skill an agent lists on its card (the lists are optional, as in a config file). */
export interface AgentSkillFields {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly tags?: readonly string[];
  /** Prompts a client (the inspector) may offer as one-click examples. */
  readonly examples?: readonly string[];
  readonly inputModes?: readonly string[];
  readonly outputModes?: readonly string[];
}

/**
 * The card fields an agent declares about itself: what it is called, what it can do, which
 * media types it reads and writes. Plain data with the keys of the executor's `agent` config
 * section, so a server can validate and merge it with what its operator configured; the server
 * adds the rest (interfaces, URLs, security schemes, signatures).
 */
export interface AgentCardFields {
  readonly name?: string;
  readonly description?: string;
  readonly version?: string;
  readonly provider?: { readonly organization: string; readonly url: string };
  readonly documentationUrl?: string;
  readonly iconUrl?: string;
  readonly skills?: readonly AgentSkillFields[];
  readonly capabilities?: { readonly streaming?: boolean; readonly pushNotifications?: boolean; readonly extendedAgentCard?: boolean };
  readonly defaultInputModes?: readonly string[];
  readonly defaultOutputModes?: readonly string[];
  /** Not shown on the card: let parts of every media type reach the agent, whatever its input modes say. */
  readonly acceptAnyInputMode?: boolean;
}

/** An agent that describes itself: its executor (`execute`, optional `cancel`) and its card. */
export interface AgentDefinition extends AgentExecutor {
  readonly card?: AgentCardFields;
}

/**
 * Declares an agent module's agent: returns `definition` unchanged, typed. Why a function for
 * an identity: an agent module written in plain JavaScript or TypeScript gets the contract
 * checked (and its `ctx` typed) where it is written, and a server that loads the module (the
 * executor's `agentModule`) finds both the executor and the card on the one export, so the
 * card it serves names this agent's skills instead of a placeholder's.
 *
 * @example
 * export default defineAgent({
 *   card: { name: 'Shouter', skills: [{ id: 'shout', name: 'Shout', description: 'Upper-cases text', examples: ['hello'] }] },
 *   async execute(ctx) {
 *     ctx.artifact({ name: 'shout', text: ctx.text.toUpperCase(), lastChunk: true });
 *   },
 * });
 */
export function defineAgent<T extends AgentDefinition>(definition: T): T {
  return definition;
}
