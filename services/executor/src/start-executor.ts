import {
  checkReadiness,
  RequestHandler,
  SUPPORTED_VERSIONS,
  type AgentExecutor,
  type Logger,
  type ProtocolVersion,
  type ReadinessReport,
} from '@a2a-polyglot/core';
import { closeExecutor, type BridgeRegistry } from '@a2a-polyglot/bridges';
import { agentRouter, startGrpcServer, type CallRouter, type RunningGrpcServer } from '@a2a-polyglot/grpc';
import type { ServerCredentials } from '@grpc/grpc-js';
import { A2AMetrics } from '@a2a-polyglot/metrics';
import { A2ATracing } from '@a2a-polyglot/tracing';
import {
  AgentMounts,
  cardInterfaces,
  startA2AServer,
  websocketCardInterfaces,
  type A2AHttpOptions,
  type RunningA2AServer,
  type StartA2AServerOptions,
} from '@a2a-polyglot/server';
import type { AgentCard, AgentInterface } from '@a2a-polyglot/model';
import type { Server } from 'node:http';
import { inspectorRoute } from '@a2a-polyglot/inspector';
import { AgentDirectory } from './agent-directory.js';
import { createAgents, defaultAgentOf, type ServedAgent } from './agents.js';
import { startRegistrySync, type RegistrySync } from './registry-sync.js';
import { authenticationFor } from './authentication.js';
import { memoryTaskStore, openBackends } from './backends.js';
import { buildAgentCard } from './card.js';
import {
  ConfigError,
  eventLogKind,
  grpcListenAddress,
  inspectorEnabled,
  resolveConfig,
  storeKind,
  type ExecutorConfig,
  type ExecutorConfigInput,
} from './config.js';
import { createDemoAgent } from './demo-agent.js';
import { instrumentHandler, type ServiceInstrumentation } from './instrumentation.js';
import { listenerTls, rateLimiterFor, type ListenerTls } from './listener-security.js';
import { loadAgentModule } from './load-agent.js';
import { closeSteps, shutdownDeadlineMs } from './shutdown-deadline.js';
import { createLogger } from './logger.js';
import { startTelemetry, type Telemetry } from './telemetry.js';

/** Extras for {@link startExecutor} that have no place in a config file. */
export interface StartExecutorOptions {
  /** Use this agent instead of `agentModule` / the demo agent (tests, embedding). */
  readonly executor?: AgentExecutor;
  /** Defaults to the executor's pino logger (JSON lines on stdout) at `config.logLevel`. */
  readonly logger?: Logger;
  /** Handlers `agents` may name; default: the framework bridges plus `demo` and `module`. */
  readonly handlers?: BridgeRegistry;
  /** Environment for the fallback layer of handler settings; default `process.env`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** HTTP transport the bridges use to reach upstreams; default the global fetch. */
  readonly fetch?: typeof fetch;
  /**
   * Trace requests with the globally registered OpenTelemetry provider even when no `OTEL_*`
   * variable starts the executor's own SDK: for an embedding application (or a test) that
   * registered its SDK itself. Default: traces are on exactly when the SDK was started.
   */
  readonly tracing?: boolean;
  /**
   * With `agents`: ready-made RequestHandlers by agent id, served instead of building one from
   * the entry (tests, embedding; see `CreateAgentsOptions.agentHandlers`).
   */
  readonly agentHandlers?: Readonly<Record<string, RequestHandler>>;
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
  /**
   * Where the gRPC listener (root agent) is bound (`url` is `host:port`, the form a GRPC
   * interface uses; not the public address). Undefined when gRPC is off (`grpcPort: false`).
   */
  readonly grpc: { readonly host: string; readonly port: number; readonly url: string } | undefined;
  readonly config: ExecutorConfig;
  /** The root agent's handler (with `agents`, the default agent's). */
  readonly handler: RequestHandler;
  /**
   * Every agent served now, with its own handler and endpoints (empty in single-agent mode):
   * those of `agents`, then those of the agent registry, which come and go while it runs.
   */
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
  const logger = options.logger ?? createLogger(resolved.logLevel);
  const telemetry = startTelemetry(logger);
  try {
    const running = await (resolved.agents.length > 0 ? startAgents(resolved, options, logger, telemetry) : startAgent(resolved, options, logger, telemetry));
    // Replaced in place, not spread: `agents` is a live getter when an agent registry runs.
    if (telemetry) Object.defineProperty(running, 'close', { value: closeThen(running.close, () => telemetry.shutdown()) });
    return running;
  } catch (error) {
    await telemetry?.shutdown();
    throw error;
  }
}

/** The service's metrics, plus traces when the SDK runs or the embedder asked for them. */
function serviceInstrumentation(options: StartExecutorOptions, telemetry: Telemetry | undefined): ServiceInstrumentation {
  return { metrics: new A2AMetrics(), tracing: (options.tracing ?? telemetry !== undefined) ? new A2ATracing() : undefined };
}

/** `close`, then `after` (once, however often the result is called). */
function closeThen(close: () => Promise<void>, after: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close().finally(after));
}

/** One agent (the demo agent, an agent module or `options.executor`) at the root. */
async function startAgent(resolved: ExecutorConfig, options: StartExecutorOptions, logger: Logger, telemetry: Telemetry | undefined): Promise<RunningExecutor> {
  const executor =
    options.executor ??
    (resolved.agentModule
      ? await loadAgentModule(resolved.agentModule, { config: resolved, logger })
      : createDemoAgent({ chunkDelayMs: resolved.demo.chunkDelayMs }));

  // Bound below, before any request can ask for a card.
  let grpc: RunningGrpcServer | undefined;
  const grpcInterfaces = (publicBase: string): AgentInterface[] => (grpc ? grpcCardInterfaces(resolved, publicBase, grpc.port) : []);

  const card = buildAgentCard(resolved);
  const tls = listenerTls(resolved);
  const backends = await openBackends(resolved, logger);
  const instrumentation = serviceInstrumentation(options, telemetry);
  const { metrics } = instrumentation;
  const handler = new RequestHandler({
    ...backends.handlerOptions,
    ...instrumentHandler(instrumentation, backends.handlerOptions.taskStore ?? memoryTaskStore(resolved)),
    card,
    executor,
    logger,
    authenticator: authenticationFor(resolved.auth, resolved.tls.clientCertIdentity).authenticator,
    rateLimiter: rateLimiterFor(resolved, backends.redis),
    extendedCard: resolved.agent.capabilities.extendedAgentCard ? () => extendedCard(card, resolved, grpcInterfaces) : undefined,
    allowPrivateWebhooks: resolved.push.allowPrivateNetworks,
    strictRequests: resolved.strictRequests,
    listTasksMaxBytes: resolved.listTasksMaxBytes,
  });
  metrics.watch(handler);

  let running: RunningA2AServer;
  try {
    if (backends.handlerOptions.cluster) {
      // The startup sweep: fail at once what this instance (same id) ran when it last stopped.
      const failed = await handler.recoverAbandoned({ includeOwn: true });
      logger.info(failed > 0 ? { recoveredTasks: failed } : {}, `Storage: ${backends.description}`);
    }
    // gRPC first: the card lists its port, so it must be bound before the first card request.
    const readiness = () => checkReadiness({ draining: () => handler.draining, checks: backends.checks });
    grpc = await startGrpc(handler, resolved, logger, readiness, tls?.grpc);
    running = await startA2AServer({ handler, ...rootListenerOptions(resolved, logger, { readiness, metrics, grpcInterfaces, tls }) });
  } catch (error) {
    await grpc?.close(0);
    await handler.shutdown(0);
    await backends.close().catch(() => undefined);
    throw error;
  }

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // The handler first (refuse new calls, let tasks finish or fail them, flush pushes),
      // so streams on every binding see the final events; then the listeners, then storage.
      // Each step is bounded by the shutdown deadline, so an unreachable backend cannot hang it.
      const deadline = Date.now() + shutdownDeadlineMs(resolved.shutdownGraceMs);
      await closeSteps(
        [
          ['the request handler', () => handler.shutdown(resolved.shutdownGraceMs)],
          ['the listeners', () => Promise.all([running.close(), grpc?.close(GRPC_CLOSE_GRACE_MS)])],
          ['the stores', () => backends.close()],
        ],
        deadline,
        logger,
      );
    })());

  return {
    url: running.url,
    endpoints: endpointsAt('', resolved.basePath),
    grpc: grpc && { host: grpc.host, port: grpc.port, url: grpc.url },
    config: resolved,
    handler,
    agents: [],
    server: running.server,
    close,
  };
}

/** Where operators list the served agents (ids, names, card URLs) when there are several. */
const AGENT_INDEX_PATH = '/agents';

/**
 * Several agents on one listener: each of `agents` (and of the agent registry, when
 * configured) under `/agents/{id}` with its own card, RequestHandler and every binding:
 * JSON-RPC and REST under its prefix, WebSocket at `/agents/{id}/a2a/ws`, gRPC on the shared
 * port addressed by the request's `tenant` or the `a2a-agent` metadata (see `agentRouter`).
 * The default agent is also served at the root, exactly as a single agent is.
 */
async function startAgents(
  resolved: ExecutorConfig,
  options: StartExecutorOptions,
  logger: Logger,
  telemetry: Telemetry | undefined,
): Promise<RunningExecutor> {
  if (storeKind(resolved) !== 'memory' || eventLogKind(resolved) !== 'memory') {
    throw new ConfigError(
      'Invalid configuration: durable stores (store, eventLog) serve a single agent for now; with "agents", run one executor per agent or use the in-memory store',
    );
  }
  const tls = listenerTls(resolved);
  const instrumentation = serviceInstrumentation(options, telemetry);
  const { metrics } = instrumentation;
  // Cards list what the listeners serve; both are set up below, after the agents exist.
  let directory: AgentDirectory | undefined;
  let grpc: RunningGrpcServer | undefined;
  const defaultId = resolved.defaultAgent ?? resolved.agents[0]!.id;
  const grpcInterfaces = (publicBase: string, tenant = ''): AgentInterface[] => (grpc ? grpcCardInterfaces(resolved, publicBase, grpc.port, tenant) : []);
  const common = listenerOptions(resolved, logger);
  // The default agent's gRPC interface is the root one (no tenant); any other agent's names its id.
  const mountOptions = (agent: ServedAgent): A2AHttpOptions => ({
    ...common,
    ...bindingOptions(resolved),
    handler: agent.handler,
    mountPath: agent.mountPath,
    extraInterfaces: (base) => grpcInterfaces(base, agent.id === defaultId ? '' : agent.id),
  });
  const extraInterfaces = (agentBase: string, id: string): AgentInterface[] => {
    const agent = directory?.get(id);
    const options = agent && mountOptions(agent);
    return options ? [...websocketCardInterfaces(options, agentBase), ...(options.extraInterfaces?.(agentBase) ?? [])] : [];
  };
  const createOptions = {
    logger,
    instrumentation,
    registry: options.handlers,
    env: options.env ?? process.env,
    fetch: options.fetch,
    agentHandlers: options.agentHandlers,
    extraInterfaces,
  };
  const agents: ServedAgent[] = await createAgents(resolved, createOptions);
  const root = defaultAgentOf(resolved, agents);
  const mounts = new AgentMounts();
  const live = new AgentDirectory({ mounts, mountOptions, defaultId: root.id, removalGraceMs: resolved.shutdownGraceMs, metrics, logger });
  directory = live;
  for (const agent of agents) live.add(agent);
  let server: RunningA2AServer;
  let registry: RegistrySync | undefined;
  try {
    // Draining is service-wide: every agent's handler shuts down together.
    const readiness = () => checkReadiness({ draining: () => live.list().some((a) => a.handler.draining) });
    const router = agentRouter(root.handler, { byMetadata: (id) => live.handler(id), byTenant: (id) => (id === root.id ? undefined : live.handler(id)) });
    // The registry's agents first, so the first request already finds them.
    if (resolved.agentRegistry.url) registry = await startRegistrySync(resolved, live, createOptions);
    grpc = await startGrpc(root.handler, resolved, logger, readiness, tls?.grpc, router);
    server = await startA2AServer({
      handler: root.handler,
      ...rootListenerOptions(resolved, logger, { readiness, metrics, grpcInterfaces, tls }),
      mounts,
      agentIndexPath: AGENT_INDEX_PATH,
    });
  } catch (error) {
    await registry?.close();
    await grpc?.close(0);
    await Promise.all(live.list().map((a) => closeExecutor(a.executor)));
    throw error;
  }

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      const deadline = Date.now() + shutdownDeadlineMs(resolved.shutdownGraceMs);
      await closeSteps(
        [
          ['the agent registry', async () => registry?.close()],
          ['the request handlers', () => Promise.all(live.list().map((a) => a.handler.shutdown(resolved.shutdownGraceMs)))],
          ['the agents', () => Promise.all(live.list().map((a) => closeExecutor(a.executor)))],
          ['the listeners', () => Promise.all([server.close(), grpc?.close(GRPC_CLOSE_GRACE_MS)])],
        ],
        deadline,
        logger,
      );
    })());

  return {
    url: server.url,
    endpoints: endpointsAt('', resolved.basePath),
    grpc: grpc && { host: grpc.host, port: grpc.port, url: grpc.url },
    config: resolved,
    handler: root.handler,
    get agents() {
      return live.list().map((a) => ({ id: a.id, handler: a.handler, endpoints: endpointsAt(a.mountPath, resolved.basePath) }));
    },
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
    sseStallTimeoutMs: config.streamStallTimeoutMs,
    cardCompat: config.cardCompat,
    logger,
  };
}

/** The WebSocket binding of an agent's listener (the root's and every mounted agent's). */
function bindingOptions(config: ExecutorConfig): Pick<A2AHttpOptions, 'websocket'> {
  return { websocket: { listInCard: config.websocketInCard, stallTimeoutMs: config.streamStallTimeoutMs } };
}

/**
 * What the root listener adds to the shared listener options: the service-wide probes and
 * metrics, the WebSocket binding, the gRPC interfaces in the card, the inspector page (when
 * enabled), and where to listen.
 * Mounted agents get only {@link listenerOptions}.
 */
function rootListenerOptions(
  config: ExecutorConfig,
  logger: Logger,
  service: {
    readonly readiness: () => Promise<ReadinessReport>;
    readonly metrics: A2AMetrics;
    readonly grpcInterfaces: (publicBase: string) => AgentInterface[];
    readonly tls: ListenerTls | undefined;
  },
): Omit<StartA2AServerOptions, 'handler'> {
  return {
    ...listenerOptions(config, logger),
    readiness: service.readiness,
    metrics: () => service.metrics.scrape(),
    ...bindingOptions(config),
    extraInterfaces: service.grpcInterfaces,
    extraRoutes: inspectorEnabled(config) ? inspectorRoute() : undefined,
    host: config.host,
    port: config.port,
    tls: service.tls?.https,
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
function extendedCard(card: AgentCard, config: ExecutorConfig, grpcInterfaces: (publicBase: string) => AgentInterface[]): AgentCard {
  if (!config.publicBaseUrl) return card;
  return { ...card, supportedInterfaces: cardInterfaces(card, config.publicBaseUrl, config.basePath, grpcInterfaces(config.publicBaseUrl)) };
}

/**
 * The gRPC listener could not be opened (port in use, permission, bad address). Its message
 * is one line naming the address and how to change or disable it, for `main` to print.
 */
export class GrpcListenError extends Error {
  constructor(host: string, port: number, cause: unknown) {
    const text = (cause as Error)?.message ?? String(cause);
    const why = /EADDRINUSE/.test(text) ? 'the address is already in use' : /EACCES/.test(text) ? 'permission denied' : text;
    super(`Cannot listen for gRPC on ${host}:${port}: ${why} (set grpcPort / GRPC_PORT / --grpc-port, or "off" to disable gRPC)`, { cause });
    this.name = 'GrpcListenError';
  }
}

/** How long gRPC calls still open after the handler's shutdown may drain before they are cut. */
const GRPC_CLOSE_GRACE_MS = 3000;

/** Starts the gRPC listener on the same RequestHandler (or, with `router`, on every agent), unless gRPC is off. */
async function startGrpc(
  handler: RequestHandler,
  config: ExecutorConfig,
  logger: Logger,
  readiness: () => Promise<ReadinessReport>,
  credentials: ServerCredentials | undefined,
  router?: CallRouter,
): Promise<RunningGrpcServer | undefined> {
  const address = grpcListenAddress(config);
  if (!address) return undefined;
  try {
    return await startGrpcServer({
      handler,
      host: address.host,
      port: address.port,
      logger,
      readiness,
      streamStallTimeoutMs: config.streamStallTimeoutMs,
      maxReceiveMessageBytes: config.maxBodyBytes,
      credentials,
      router,
    });
  } catch (error) {
    throw new GrpcListenError(address.host, address.port, error);
  }
}

/**
 * The card's GRPC interface: `grpcPublicUrl` verbatim when configured, otherwise the public
 * host (the hostname of `publicBaseUrl`, or of the request's Host when that is unset) with
 * the bound gRPC port, in the `host:port` form the spec gives for GRPC; `https://host:port`
 * when the listener serves TLS (`tls`), so clients know to open a TLS channel.
 */
export function grpcInterface(
  config: Pick<ExecutorConfig, 'grpcPublicUrl'> & { readonly tls?: Pick<ExecutorConfig['tls'], 'certFile'> },
  publicBase: string,
  port: number,
  protocolVersion: ProtocolVersion = '1.0',
  tenant = '',
): AgentInterface {
  const url = config.grpcPublicUrl ?? `${config.tls?.certFile ? 'https://' : ''}${new URL(publicBase).hostname}:${port}`;
  return { protocolBinding: 'GRPC', url, protocolVersion, tenant };
}

/**
 * The card's GRPC interfaces: the one port serves both `lf.a2a.v1.A2AService` (1.0) and the
 * v0.3 service `a2a.v1.A2AService`, so it is listed once per version, 1.0 first (v0.3 clients
 * pick the entry naming 0.3). A mounted agent's entries carry its id as `tenant`: v1.0 clients
 * copy it into every request, which is how the shared port tells the agents apart. Such an
 * agent gets no 0.3 entry: v0.3 requests have no tenant, so a v0.3 client that followed the
 * entry would reach the default agent instead. v0.3 gRPC clients reach it with the
 * `a2a-agent` metadata (documented, not advertised), or use its v0.3 JSON-RPC and REST entries.
 */
export function grpcCardInterfaces(config: Parameters<typeof grpcInterface>[0], publicBase: string, port: number, tenant = ''): AgentInterface[] {
  const versions = tenant === '' ? SUPPORTED_VERSIONS : SUPPORTED_VERSIONS.filter((version) => version !== '0.3');
  return versions.map((version) => grpcInterface(config, publicBase, port, version, tenant));
}
