import { InMemoryTaskStore, RequestHandler, type AgentExecutor, type Logger } from '@a2a-polyglot/core';
import { BridgeRegistry, BUILTIN_BRIDGES, closeExecutor, SettingsError } from '@a2a-polyglot/bridges';
import type { AgentCard } from '@a2a-polyglot/model';
import { cardInterfaces } from '@a2a-polyglot/server';
import { authenticationFor } from './authentication.js';
import { rateLimiterFor } from './listener-security.js';
import { buildAgentCard } from './card.js';
import { ConfigError, type ExecutorConfig } from './config.js';
import { serviceHandlers } from './builtin-handlers.js';
import { instrumentHandler, type ServiceInstrumentation } from './instrumentation.js';

/** One served agent: its request handler (own task store), executor and where it is mounted. */
export interface ServedAgent {
  readonly id: string;
  /** `/agents/{id}`; the default agent is also served at the root. */
  readonly mountPath: string;
  readonly handler: RequestHandler;
  readonly executor: AgentExecutor;
}

/** What {@link createAgents} needs besides the configuration. */
export interface CreateAgentsOptions {
  readonly logger: Logger;
  /** Every agent reports into the service's one set of metrics (and traces, when on). */
  readonly instrumentation: ServiceInstrumentation;
  /** Handlers agents may name; default: the framework bridges plus `demo` and `module`. */
  readonly registry?: BridgeRegistry;
  /** The fallback layer of handler settings. */
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly fetch?: typeof fetch;
}

/** The registry the service uses when none is given: every framework bridge, `demo` and `module`. */
export function defaultRegistry(config: ExecutorConfig): BridgeRegistry {
  return new BridgeRegistry([...BUILTIN_BRIDGES, ...serviceHandlers(config)]);
}

/**
 * Builds every agent of `config.agents`: resolves its handler's settings (agent → service
 * `handlers.<name>` → environment → defaults), creates the executor, and gives it its own
 * RequestHandler, so tasks, streams and push configs never cross agents. Settings problems
 * become one-line {@link ConfigError}s naming the agent.
 */
export async function createAgents(config: ExecutorConfig, options: CreateAgentsOptions): Promise<ServedAgent[]> {
  const registry = options.registry ?? defaultRegistry(config);
  for (const name of Object.keys(config.handlers)) {
    if (!registry.get(name)) throw new ConfigError(`Invalid configuration: handlers.${name} names no handler (known: ${registry.names().join(', ')})`);
  }
  const { authenticator } = authenticationFor(config.auth, config.tls.clientCertIdentity);
  // One limiter for every agent: a client's budget is service-wide, whichever agent it calls.
  const rateLimiter = rateLimiterFor(config);
  const served: ServedAgent[] = [];
  try {
    for (const [i, entry] of config.agents.entries()) {
      let executor: AgentExecutor;
      try {
        executor = await registry.create(entry.handler, {
          agentId: entry.id,
          agentName: entry.name,
          agentSettings: entry.settings,
          serviceSettings: config.handlers[entry.handler],
          env: options.env,
          layerNames: { agent: `agents[${i}].settings`, service: `handlers.${entry.handler}` },
          logger: options.logger,
          fetch: options.fetch,
        });
      } catch (error) {
        if (error instanceof SettingsError) throw new ConfigError(`Invalid configuration: agent ${JSON.stringify(entry.id)}: ${error.message.replace(/^Invalid settings: /, '')}`);
        throw error;
      }
      const mountPath = `/agents/${entry.id}`;
      const card = buildAgentCard({ agent: entry, auth: config.auth, tls: config.tls });
      const handler = new RequestHandler({
        card,
        executor,
        logger: options.logger,
        ...instrumentHandler(options.instrumentation, new InMemoryTaskStore()),
        authenticator,
        rateLimiter,
        extendedCard: entry.capabilities.extendedAgentCard ? () => extendedCard(card, config, mountPath) : undefined,
        allowPrivateWebhooks: config.push.allowPrivateNetworks,
        strictRequests: config.strictRequests,
        listTasksMaxBytes: config.listTasksMaxBytes,
      });
      options.instrumentation.metrics.watch(handler);
      served.push({ id: entry.id, mountPath, handler, executor });
    }
  } catch (error) {
    await Promise.all(served.map((a) => closeExecutor(a.executor)));
    throw error;
  }
  return served;
}

/** The agent served at the root paths. */
export function defaultAgentOf(config: ExecutorConfig, agents: readonly ServedAgent[]): ServedAgent {
  return agents.find((a) => a.id === config.defaultAgent) ?? agents[0]!;
}

/** Extended card of a mounted agent: its interfaces under its own prefix, when the public URL is known. */
function extendedCard(card: AgentCard, config: ExecutorConfig, mountPath: string): AgentCard {
  if (!config.publicBaseUrl) return card;
  return { ...card, supportedInterfaces: cardInterfaces(card, `${config.publicBaseUrl}${mountPath}`, config.basePath, []) };
}
