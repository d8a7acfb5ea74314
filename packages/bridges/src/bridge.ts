import type { AgentExecutor, Logger } from '@a2a-polyglot/core';
import type { Redactor } from './redact.js';
import type { SettingsSchema } from './settings.js';

/** What a bridge gets besides its settings: who it serves and how to reach the network. */
export interface BridgeEnv {
  /** The agent's id in the service configuration (log fields, session keys). */
  readonly agentId: string;
  /** The agent card's `name`: used in the fallback text `[<AgentName>] Request completed.` */
  readonly agentName: string;
  /** Already redacts the bridge's secrets; log through it only. */
  readonly logger: Logger;
  /** Removes the bridge's secrets from text that leaves the bridge (task messages). */
  readonly redactor: Redactor;
  /** The HTTP client; defaults to the global `fetch` (tests may inject another transport). */
  readonly fetch: typeof fetch;
}

/**
 * An AgentExecutor made by a bridge. `close()` releases what outlives a task run (event
 * streams kept open while a task waits for input, timers); the executor service calls it on
 * shutdown.
 */
export interface BridgeExecutor extends AgentExecutor {
  close(): Promise<void>;
}

/**
 * The handler seam: adding a framework means writing one module that exports one of these.
 * A bridge is an AgentExecutor factory plus the schema of its settings; the service resolves
 * the settings (agent → service → environment → defaults, see `resolveSettings`) and calls
 * `create` once per configured agent.
 *
 * @example
 * export const echoBridge = defineBridge({
 *   name: 'echo',
 *   description: 'Answers with the text it got',
 *   settings: { prefix: field.string({ description: 'prepended to answers', default: '' }) },
 *   create: (settings) => ({ async execute(ctx) { ctx.reply(`${settings.prefix}${ctx.text}`); } }),
 * });
 */
export interface Bridge<S = unknown> {
  /** The handler name agents use in configuration (`"handler": "openai-chat"`). */
  readonly name: string;
  /** One line for docs and `--help`-style listings. */
  readonly description: string;
  readonly settings: SettingsSchema<S>;
  /**
   * The media types its agents read (what their cards' `defaultInputModes` default to; the
   * server refuses other parts with ContentTypeNotSupported). Unset: `text/plain` only.
   */
  readonly inputModes?: readonly string[];
  create(settings: S, env: BridgeEnv): AgentExecutor | Promise<AgentExecutor>;
}

/** Identity function that lets TypeScript infer `S` from the schema. */
export function defineBridge<S>(bridge: Bridge<S>): Bridge<S> {
  return bridge;
}
