import type { AgentExecutor, Authenticator, Logger, QueueOptions, RateLimiter, RequestHandler, RequestHandlerOptions } from '@a2a-polyglot/core';
import { BridgeRegistry, BUILTIN_BRIDGES, closeExecutor, SettingsError } from '@a2a-polyglot/bridges';
import { INSPECTOR_PATH } from '@a2a-polyglot/inspector';
import type { AgentInterface } from '@a2a-polyglot/model';
import { LIVENESS_PATH, METRICS_PATH, normalizeBasePath, READINESS_PATH } from '@a2a-polyglot/server';
import { agentRequestHandler } from './a2a-lite/index.js';
import { authenticationFor } from './authentication.js';
import { scopedBackends, type HandlerBackends } from './agent-scope.js';
import { memoryEventLog, memoryTaskStore, type Backends } from './backends.js';
import { rateLimiterFor } from './listener-security.js';
import { buildAgentCard } from './card.js';
import { signedCards } from './card-signing.js';
import { extendedCardAt } from './extended-card.js';
import { ConfigError, type AgentEntryConfig, type ExecutorConfig } from './config.js';
import { serviceHandlers } from './builtin-handlers.js';
import { instrumentHandler, type ServiceInstrumentation } from './instrumentation.js';
import { pushHandlerOptions } from './push-options.js';
import { agentModuleCard } from './load-agent.js';
import { AGENT_INDEX_PATH } from './listener-options.js';
import { mergeModuleCard } from './module-card.js';
import type { SingleAgent } from './single-agent.js';
import { queueOptions } from './queue-options.js';

/** One served agent: its request handler (own task store), executor and where it is mounted. */
export interface ServedAgent {
  /** Its id; {@link SINGLE_AGENT_ID} for the single agent of a configuration without `agents`. */
  readonly id: string;
  /** `/agents/{id}`; the default agent is also served at the root. `''` for the single agent: the root only. */
  readonly mountPath: string;
  /**
   * `/{id}`: the agent also answers JSON-RPC at `POST /{id}/a2a` and serves its card at
   * `/{id}/.well-known/agent-card.json` (the daemon-engine path shape). Undefined when `/{id}`
   * is one of the service's own root paths (see {@link aliasPathOf}).
   */
  readonly aliasPath?: string;
  readonly handler: RequestHandler;
  /** What the service closes when the agent stops: the executor it built (a caller's stays open: {@link IDLE_EXECUTOR}). */
  readonly executor: AgentExecutor;
}

/**
 * The id of the single agent (a configuration without `agents`): no `/agents/{id}` mount, not
 * in `RunningExecutor.agents`; the `/agents` listing shows it at the root with id `""`.
 */
export const SINGLE_AGENT_ID = '';

/** An executor that does nothing: in place of one the service must not close (a caller's), or must not run. */
const IDLE_EXECUTOR: AgentExecutor = { execute: async () => undefined };

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
  /**
   * Ready-made handlers by agent id, served instead of building one from the entry's handler
   * and settings (tests, embedding: the conformance suite serves its scripted handler as a
   * non-default agent this way). The entry's card fields are then unused.
   */
  readonly agentHandlers?: Readonly<Record<string, RequestHandler>>;
  /**
   * The interfaces an agent is served over besides JSON-RPC and REST (WebSocket, gRPC) at a
   * public base URL that includes its mount path: its extended card lists them as its public
   * card does. Called per request, so it may depend on listeners started after the agents.
   */
  readonly extraInterfaces?: (agentBase: string, agentId: string) => AgentInterface[];
  /**
   * The durable backends every agent shares ({@link openBackends}), each agent getting its own
   * partition of them ({@link scopedBackends}); `defaultAgentId` keeps the unprefixed one.
   * Absent, or for what they leave out (the in-memory kinds), each agent has its own in memory.
   */
  readonly backends?: Backends;
  readonly defaultAgentId?: string;
  /** The service's one rate limiter (on the backends' Redis when there is one); default: one per configuration, in memory. */
  readonly rateLimiter?: RateLimiter;
}

/**
 * The registry the service uses when none is given: every framework bridge, `demo` and
 * `module`. `moduleAllowed` vets each file the `module` handler resolves before it is imported
 * (the agent registry's policy, see `registryModulePolicy`); unset, any file may load.
 */
export function defaultRegistry(config: ExecutorConfig, moduleAllowed?: (spec: string, path: string) => void): BridgeRegistry {
  return new BridgeRegistry([...BUILTIN_BRIDGES, ...serviceHandlers(config, moduleAllowed)]);
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
  const served: ServedAgent[] = [];
  try {
    for (const [i, entry] of config.agents.entries()) served.push(await createAgent(entry, `agents[${i}].settings`, config, { ...options, registry }));
  } catch (error) {
    await Promise.all(served.map((a) => closeExecutor(a.executor)));
    throw error;
  }
  return served;
}

/**
 * Builds one agent (see {@link createAgents}): the config file's entries and the agent
 * registry's rows go through here alike. `settingsName` names its settings in messages
 * (`agents[0].settings`, `agent registry row "x" settings`).
 */
export async function createAgent(entry: AgentEntryConfig, settingsName: string, config: ExecutorConfig, options: CreateAgentsOptions): Promise<ServedAgent> {
  const given = options.agentHandlers?.[entry.id];
  if (given) return { ...agentPaths(entry.id, config, options.logger), handler: given, executor: IDLE_EXECUTOR };
  const registry = options.registry ?? defaultRegistry(config);
  let executor: AgentExecutor;
  try {
    executor = await registry.create(entry.handler, {
      agentId: entry.id,
      agentName: entry.name,
      agentSettings: entry.settings,
      serviceSettings: config.handlers[entry.handler],
      env: options.env,
      layerNames: { agent: settingsName, service: `handlers.${entry.handler}` },
      logger: options.logger,
      fetch: options.fetch,
    });
  } catch (error) {
    if (error instanceof SettingsError)
      throw new ConfigError(`Invalid configuration: agent ${JSON.stringify(entry.id)}: ${error.message.replace(/^Invalid settings: /, '')}`);
    throw error;
  }
  // A `module` agent's own card is the base; the entry's (or registry row's) card keys override it.
  const moduleCard = agentModuleCard(executor);
  return servedAgent(moduleCard ? mergeModuleCard(entry, moduleCard) : entry, executor, config, options);
}

/**
 * An agent that is served under its id but answers every call (after authentication) with
 * Unavailable and `reason`: what the agent registry puts up for a row it could not build, so
 * the failure stays with that agent and its clients learn why. Its card is `entry`'s with a
 * description saying it is unavailable (the card is public; the reason goes to admitted callers).
 */
export function unavailableAgent(entry: AgentEntryConfig, reason: string, config: ExecutorConfig, options: CreateAgentsOptions): ServedAgent {
  const description = `Unavailable: this agent could not be started (${entry.handler} handler); calls answer UNAVAILABLE with the reason.`;
  return servedAgent({ ...entry, description, a2aLite: undefined }, IDLE_EXECUTOR, config, options, reason);
}

/**
 * The single agent (see `loadSingleAgent`) as a served agent: the one-agent case of the
 * gateway, built like an entry of `agents` from the `agent` card section and the service's
 * auth and rate limits, on the default (unprefixed) partition, served at the root only.
 */
export function singleServedAgent(single: SingleAgent, options: CreateAgentsOptions): ServedAgent {
  const { config } = single;
  const entry: ServedEntry = { ...config.agent, id: SINGLE_AGENT_ID };
  const agent = servedAgent(entry, single.executor, config, { ...options, defaultAgentId: SINGLE_AGENT_ID });
  return single.owned ? agent : { ...agent, executor: IDLE_EXECUTOR };
}

/** What {@link servedAgent} reads of an agent entry: everything but how its executor is built (unset `backgroundExecution`: the core's default). */
type ServedEntry = Omit<AgentEntryConfig, 'handler' | 'settings' | 'backgroundExecution'> & { readonly backgroundExecution?: boolean };

/**
 * The RequestHandler of one agent around `executor`, on its partition of the shared backends
 * (or its own in-memory stores), watched by the service's metrics.
 */
function servedAgent(entry: ServedEntry, executor: AgentExecutor, config: ExecutorConfig, options: CreateAgentsOptions, unavailable?: string): ServedAgent {
  const paths = agentPaths(entry.id, config, options.logger);
  const { mountPath } = paths;
  // The card declares the schemes of the auth that admits callers of this agent.
  const card = buildAgentCard({ agent: entry, auth: entry.auth ?? config.auth, tls: config.tls });
  const handler = agentRequestHandler(
    {
      card,
      executor,
      unavailable,
      backgroundExecution: entry.backgroundExecution,
      acceptAnyInputMode: entry.acceptAnyInputMode,
      ...agentHandlerOptions(config, {
        ...options,
        // Metrics and traces name an agent by its id; the single agent, which has none, by its card's name.
        label: entry.id || card.name,
        backends: options.backends && scopedBackends(options.backends.handlerOptions, entry.id === options.defaultAgentId ? undefined : entry.id),
        rateLimiter: agentRateLimiter(entry, config, options.rateLimiter ?? sharedRateLimiter(config)),
        queue: queueOptions(config, options.backends?.queue, entry.id, entry.retryable),
      }),
      // An agent's own auth replaces the service's (agentHandlerOptions sets the shared one).
      ...(entry.auth ? { authenticator: authenticationFor(entry.auth, config.tls.clientCertIdentity).authenticator } : {}),
      maxConcurrentTasks: entry.maxConcurrentTasks,
      maxConcurrentTasksPerIdentity: entry.maxConcurrentTasksPerIdentity,
      extendedCard: entry.capabilities.extendedAgentCard
        ? signedCards(config, () => extendedCardAt(card, config, mountPath, (base) => options.extraInterfaces?.(base, entry.id) ?? []))
        : undefined,
    },
    entry.id,
    entry.a2aLite,
  );
  options.instrumentation.metrics.watch(handler);
  return { ...paths, handler, executor };
}

/**
 * The RequestHandler options every agent shares: its backends (or its own in-memory stores),
 * timed and traced under `label`, authentication, rate limits, push delivery and the request
 * rules of the configuration.
 */
function agentHandlerOptions(
  config: ExecutorConfig,
  options: {
    readonly logger: Logger;
    readonly instrumentation: ServiceInstrumentation;
    readonly label: string;
    readonly backends: HandlerBackends | undefined;
    readonly rateLimiter: RateLimiter | undefined;
    /** The agent's run-queue options ({@link queueOptions}); undefined: its tasks run where received. */
    readonly queue?: QueueOptions;
  },
): Omit<RequestHandlerOptions, 'card' | 'executor'> {
  const backends = options.backends ?? {};
  return {
    logger: options.logger,
    ...backends,
    ...(options.queue && { queue: options.queue }),
    ...instrumentHandler(options.instrumentation, options.label, backends.taskStore ?? memoryTaskStore(config), backends.eventLog ?? memoryEventLog(config)),
    authenticator: sharedAuthenticator(config),
    rateLimiter: options.rateLimiter,
    ...pushHandlerOptions(config),
    strictRequests: config.strictRequests,
    listTasksMaxBytes: config.listTasksMaxBytes,
    experimental11: config.protocol.experimental11,
    longPollMaxMs: config.protocol.longPollMaxMs,
    idempotencyWindowMs: config.idempotencyWindowMs,
  };
}

/** Where agent `id` is served: its mount path and, unless reserved, its short alias (logged when not). */
function agentPaths(id: string, config: ExecutorConfig, logger: Logger): Pick<ServedAgent, 'id' | 'mountPath' | 'aliasPath'> {
  if (id === SINGLE_AGENT_ID) return { id, mountPath: '' };
  const aliasPath = aliasPathOf(id, config.basePath);
  if (!aliasPath)
    logger.warn({ agentId: id }, `Agent ${id} has no short paths /${id}/a2a and /${id}/.well-known/agent-card.json: /${id} is a root path of the service`);
  return { id, mountPath: `/agents/${id}`, aliasPath };
}

/**
 * The short alias `/{id}` of agent `id`, or undefined when that first path segment belongs to
 * the service itself: the probes, the metrics, the `/agents` listing, the inspector, the root
 * agent's API under `basePath` (with an empty `basePath` its REST routes are at the root, and
 * `/tasks/a2a` is a GetTask) and `/.well-known`. Why not refuse such ids: they are served
 * under `/agents/{id}` as before; only the alias, which would shadow a root path, is left out.
 */
export function aliasPathOf(id: string, basePath: string | undefined): string | undefined {
  const base = normalizeBasePath(basePath);
  const reserved = [LIVENESS_PATH, READINESS_PATH, METRICS_PATH, AGENT_INDEX_PATH, INSPECTOR_PATH, '/.well-known', base === '' ? '/tasks' : base];
  return reserved.some((path) => path.split('/')[1] === id) ? undefined : `/${id}`;
}

/**
 * One authenticator per configuration, shared by every agent (the file's and the registry's),
 * so a JWKS is fetched and cached once, not once per agent.
 */
const authenticators = new WeakMap<ExecutorConfig['auth'], Authenticator | undefined>();
function sharedAuthenticator(config: ExecutorConfig): Authenticator | undefined {
  if (!authenticators.has(config.auth)) authenticators.set(config.auth, authenticationFor(config.auth, config.tls.clientCertIdentity).authenticator);
  return authenticators.get(config.auth);
}

/** One rate limiter per configuration: a client's budget is service-wide, whichever agent it calls. */
const rateLimiters = new WeakMap<ExecutorConfig['rateLimit'], RateLimiter | undefined>();
function sharedRateLimiter(config: ExecutorConfig): RateLimiter | undefined {
  if (!rateLimiters.has(config.rateLimit)) rateLimiters.set(config.rateLimit, rateLimiterFor(config));
  return rateLimiters.get(config.rateLimit);
}

/**
 * The rate limiter of agent `entry`: the service-wide one (`shared`), and the agent's own budgets
 * (`rateLimit` of its entry) on top of it, so a request to that agent must fit both.
 */
function agentRateLimiter(entry: ServedEntry, config: ExecutorConfig, shared: RateLimiter | undefined): RateLimiter | undefined {
  const own = entry.rateLimit && rateLimiterFor({ rateLimit: entry.rateLimit, eventLog: config.eventLog }, undefined, `agent:${entry.id}`);
  if (!own || !shared) return own ?? shared;
  return {
    async consume(scope, key) {
      await shared.consume(scope, key);
      await own.consume(scope, key);
    },
  };
}

/** The agent served at the root paths: `defaultAgent`, or the first of `agents`. */
export function defaultAgentOf(config: ExecutorConfig, agents: readonly ServedAgent[]): ServedAgent {
  const found = agents.find((a) => a.id === config.defaultAgent) ?? agents[0];
  if (!found) throw new Error('No agent to serve at the root: "agents" is empty');
  return found;
}
