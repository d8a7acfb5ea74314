import { silentLogger, type AgentExecutor, type Logger } from '@a2a-polyglot/core';
import type { Bridge } from './bridge.js';
import { hermesRunsBridge } from './hermes-runs.js';
import { openAiChatBridge } from './openai-chat.js';
import { openClawResponsesBridge } from './openclaw-responses.js';
import { redactingLogger, Redactor } from './redact.js';
import { resolveSettings, secretValues, SettingsError, type LayerNames } from './settings.js';

/**
 * The bridges this package ships. Held as `Bridge<unknown>`: each keeps its own settings type,
 * and the registry only hands a bridge the settings its own schema resolved.
 */
export const BUILTIN_BRIDGES: readonly Bridge<unknown>[] = [openAiChatBridge, hermesRunsBridge, openClawResponsesBridge];

/** What {@link BridgeRegistry.create} needs to build one agent's executor. */
export interface CreateAgentOptions {
  readonly agentId: string;
  /** The card name (fallback text). */
  readonly agentName: string;
  /** The agent's own settings: highest precedence. */
  readonly agentSettings?: Readonly<Record<string, unknown>>;
  /** The service-wide settings of this handler. */
  readonly serviceSettings?: Readonly<Record<string, unknown>>;
  /** Environment variables: the fallback layer. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** How the two config layers are named in errors (e.g. `agents[1].settings`). */
  readonly layerNames?: LayerNames;
  readonly logger?: Logger;
  /** HTTP transport for the upstream; default the global fetch. */
  readonly fetch?: typeof fetch;
}

/**
 * Handler name → bridge. The executor service routes each configured agent to the bridge its
 * `handler` names; registering a bridge is all it takes to add a framework.
 */
export class BridgeRegistry {
  private readonly bridges = new Map<string, Bridge<unknown>>();

  constructor(bridges: Iterable<Bridge<unknown>> = BUILTIN_BRIDGES) {
    for (const bridge of bridges) this.register(bridge);
  }

  /** Adds a bridge; a second one with the same name is a programming error. */
  register(bridge: Bridge<unknown>): this {
    if (this.bridges.has(bridge.name)) throw new Error(`A bridge named ${bridge.name} is already registered`);
    this.bridges.set(bridge.name, bridge);
    return this;
  }

  get(name: string): Bridge<unknown> | undefined {
    return this.bridges.get(name);
  }

  /** Registered handler names, in registration order. */
  names(): string[] {
    return [...this.bridges.keys()];
  }

  /**
   * Resolves the settings (agent → service → environment → defaults) and creates the agent's
   * executor, with a logger that redacts the bridge's secrets. Throws {@link SettingsError}
   * for an unknown handler or bad settings.
   */
  async create(handler: string, options: CreateAgentOptions): Promise<AgentExecutor> {
    const bridge = this.bridges.get(handler);
    if (!bridge) throw new SettingsError(`Unknown handler ${JSON.stringify(handler)} (known: ${this.names().join(', ')})`);
    const settings = resolveSettings(bridge.settings, { agent: options.agentSettings, service: options.serviceSettings, env: options.env }, options.layerNames);
    const redactor = new Redactor(secretValues(bridge.settings, settings));
    const transport = options.fetch ?? ((input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => fetch(input, init));
    return bridge.create(settings, {
      agentId: options.agentId,
      agentName: options.agentName,
      logger: redactingLogger(options.logger ?? silentLogger, redactor),
      redactor,
      fetch: transport as typeof fetch,
    });
  }
}

/** Releases what an executor holds past its runs, if it has a `close()` (bridge executors do). */
export async function closeExecutor(executor: AgentExecutor): Promise<void> {
  const close = (executor as { close?: unknown }).close;
  if (typeof close === 'function') await (close as () => Promise<void>).call(executor);
}
