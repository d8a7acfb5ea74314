import { ApiKeyAuthenticator, consoleLogger, RequestHandler, type AgentExecutor, type Logger } from '@a2a-polyglot/core';
import { closeExecutor, type BridgeRegistry } from '@a2a-polyglot/bridges';
import { cardInterfaces, startA2AServer, type A2AHttpOptions, type RunningA2AServer } from '@a2a-polyglot/server';
import type { AgentCard } from '@a2a-polyglot/model';
import type { Server } from 'node:http';
import { createAgents, defaultAgentOf, type ServedAgent } from './agents.js';
import { openBackends } from './backends.js';
import { buildAgentCard } from './card.js';
import { ConfigError, eventLogKind, resolveConfig, storeKind, type ExecutorConfig, type ExecutorConfigInput } from './config.js';
import { createDemoAgent } from './demo-agent.js';
import { loadAgentModule } from './load-agent.js';

/** Extras for {@link startExecutor} that have no place in a config file. */
export interface StartExecutorOptions {
  /** Use this agent instead of `agentModule` / the demo agent (tests, embedding). */
  readonly executor?: AgentExecutor;
  /** Defaults to a console logger at `config.logLevel`. */
  readonly logger?: Logger;
  /** Handlers `agents` may name; default: the framework bridges plus `demo` and `module`. */
  readonly handlers?: BridgeRegistry;
  /** Environment for the fallback layer of handler settings; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** HTTP transport the bridges use to reach upstreams; default the global fetch. */
  readonly fetch?: typeof fetch;
}

/** Where one agent is served, relative to {@link RunningExecutor.url}. */
export interface AgentEndpoints {
  readonly card: string;
  readonly jsonRpc: string;
  readonly rest: string;
}

/** A running executor service. */
export interface RunningExecutor {
  /** Where the listener is bound, e.g. `http://127.0.0.1:8080` (not the public URL). */
  readonly url: string;
  /** The agent card URL, JSON-RPC endpoint and REST base of the root agent, relative to {@link url}. */
  readonly endpoints: AgentEndpoints;
  readonly config: ExecutorConfig;
  /** The root agent's handler (with `agents`, the default agent's). */
  readonly handler: RequestHandler;
  /** Every agent of `agents` with its own handler and endpoints (empty in single-agent mode). */
  readonly agents: ReadonlyArray<{ readonly id: string; readonly handler: RequestHandler; readonly endpoints: AgentEndpoints }>;
  readonly server: Server;
  /**
   * Graceful stop: new calls are refused, running tasks get `shutdownGraceMs` to finish and
   * are then failed with a status message subscribers can see, push deliveries are flushed,
   * and the listener closes. Idempotent.
   */
  close(): Promise<void>;
}

/**
 * Starts the service in-process: the same wiring `main` uses, minus argv/env and signals.
 * `config` is a full or partial configuration (validated like a config file).
 */
export async function startExecutor(config: ExecutorConfigInput | ExecutorConfig = {}, options: StartExecutorOptions = {}): Promise<RunningExecutor> {
  const resolved = resolveConfig(config);
  const logger = options.logger ?? consoleLogger(resolved.logLevel);
  if (resolved.agents.length > 0) return startAgents(resolved, options, logger);
  const executor =
    options.executor ??
    (resolved.agentModule
      ? await loadAgentModule(resolved.agentModule, { config: resolved, logger })
      : createDemoAgent({ chunkDelayMs: resolved.demo.chunkDelayMs }));

  const card = buildAgentCard(resolved);
  const apiKeys = resolved.auth.apiKeys;
  const backends = await openBackends(resolved, logger);
  const handler = new RequestHandler({
    ...backends.handlerOptions,
    card,
    executor,
    logger,
    authenticator: Object.keys(apiKeys).length > 0 ? new ApiKeyAuthenticator({ keys: apiKeys, header: resolved.auth.header }) : undefined,
    extendedCard: resolved.agent.capabilities.extendedAgentCard ? () => extendedCard(card, resolved) : undefined,
    allowPrivateWebhooks: resolved.push.allowPrivateNetworks,
  });

  let running: RunningA2AServer;
  try {
    if (backends.handlerOptions.cluster) {
      // The startup sweep: fail at once what this instance (same id) ran when it last stopped.
      const failed = await handler.recoverAbandoned({ includeOwn: true });
      logger.info(`Storage: ${backends.description}`, failed > 0 ? { recoveredTasks: failed } : undefined);
    }
    running = await startA2AServer({ handler, ...listenerOptions(resolved, logger), host: resolved.host, port: resolved.port });
  } catch (error) {
    await handler.shutdown(0);
    await backends.close().catch(() => undefined);
    throw error;
  }

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await handler.shutdown(resolved.shutdownGraceMs);
      await running.close();
      await backends.close();
    })());

  return { url: running.url, endpoints: endpointsAt('', resolved.basePath), config: resolved, handler, agents: [], server: running.server, close };
}

/**
 * Several agents on one listener: each of `agents` under `/agents/{id}` with its own card,
 * JSON-RPC and REST endpoints and its own RequestHandler; the default agent also at the root.
 */
async function startAgents(resolved: ExecutorConfig, options: StartExecutorOptions, logger: Logger): Promise<RunningExecutor> {
  if (storeKind(resolved) !== 'memory' || eventLogKind(resolved) !== 'memory') {
    throw new ConfigError('Invalid configuration: durable stores (store, eventLog) serve a single agent for now; with "agents", run one executor per agent or use the in-memory store');
  }
  const agents: ServedAgent[] = await createAgents(resolved, { logger, registry: options.handlers, env: options.env ?? process.env, fetch: options.fetch });
  const root = defaultAgentOf(resolved, agents);
  const common = listenerOptions(resolved, logger);
  let server: RunningA2AServer;
  try {
    server = await startA2AServer({
      handler: root.handler,
      ...common,
      host: resolved.host,
      port: resolved.port,
      mounts: agents.map((a) => ({ ...common, handler: a.handler, mountPath: a.mountPath })),
    });
  } catch (error) {
    await Promise.all(agents.map((a) => closeExecutor(a.executor)));
    throw error;
  }

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await Promise.all(agents.map((a) => a.handler.shutdown(resolved.shutdownGraceMs)));
      await Promise.all(agents.map((a) => closeExecutor(a.executor)));
      await server.close();
    })());

  return {
    url: server.url,
    endpoints: endpointsAt('', resolved.basePath),
    config: resolved,
    handler: root.handler,
    agents: agents.map((a) => ({ id: a.id, handler: a.handler, endpoints: endpointsAt(a.mountPath, resolved.basePath) })),
    server: server.server,
    close,
  };
}

/** Listener options every agent of this service shares. */
function listenerOptions(config: ExecutorConfig, logger: Logger): Omit<A2AHttpOptions, 'handler'> {
  return {
    basePath: config.basePath,
    publicBaseUrl: config.publicBaseUrl,
    trustProxy: config.trustProxy,
    maxBodyBytes: config.maxBodyBytes,
    sseHeartbeatMs: config.sseHeartbeatMs,
    logger,
  };
}

function endpointsAt(mountPath: string, basePath: string): AgentEndpoints {
  return {
    card: `${mountPath}/.well-known/agent-card.json`,
    jsonRpc: `${mountPath}${basePath}/rpc`,
    rest: `${mountPath}${basePath}` || '/',
  };
}

/**
 * The extended card: the public card, with its interfaces filled in when the public URL is
 * known. The server adds interfaces per request only at the discovery paths; the
 * GetExtendedAgentCard call has no request URL, so without `publicBaseUrl` the list stays empty.
 */
function extendedCard(card: AgentCard, config: ExecutorConfig): AgentCard {
  if (!config.publicBaseUrl) return card;
  return { ...card, supportedInterfaces: cardInterfaces(card, config.publicBaseUrl, config.basePath, []) };
}
