import type { AgentExecutor, Logger, RequestHandler } from '@a2a-polyglot/core';
import type { BridgeRegistry } from '@a2a-polyglot/bridges';
import type { RunningGrpcServer } from '@a2a-polyglot/grpc';
import type { RunningA2AServer } from '@a2a-polyglot/server';
import type { Server } from 'node:http';
import type { ExecutorConfig } from './config.js';
import { closeSteps, shutdownDeadlineMs } from './shutdown-deadline.js';

/** Extras for `startExecutor` that have no place in a config file. */
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

/** One agent served now, as {@link RunningExecutor.agents} lists it. */
export interface ServedAgentInfo {
  readonly id: string;
  readonly handler: RequestHandler;
  readonly endpoints: AgentEndpoints;
}

/** A running executor service. */
export interface RunningExecutor {
  /**
   * Where the listener is bound, e.g. `http://127.0.0.1:8080` (not the public URL); '' for a
   * worker (`role: "worker"`), which binds no port.
   */
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
  readonly agents: ReadonlyArray<ServedAgentInfo>;
  /** The HTTP server; undefined for a worker (`role: "worker"`), which binds no port. */
  readonly server: Server | undefined;
  /**
   * Graceful stop: new calls are refused, running tasks get `shutdownGraceMs` to finish and
   * are then failed with a status message subscribers can see (a queued task of a `retryable`
   * agent is handed back to the run queue instead, for another worker to resume), push
   * deliveries are flushed, and the listener closes. Idempotent.
   */
  close(): Promise<void>;
}

/** The card URL, JSON-RPC endpoint and REST base of an agent mounted at `mountPath` ('' for the root). */
export function endpointsAt(mountPath: string, basePath: string): AgentEndpoints {
  return {
    card: `${mountPath}/.well-known/agent-card.json`,
    jsonRpc: `${mountPath}${basePath}/rpc`,
    rest: `${mountPath}${basePath}` || '/',
  };
}

/** One named step of a shutdown (see `closeSteps`). */
export type CloseStep = readonly [name: string, run: () => Promise<unknown>];

/**
 * The service's `close`: runs `steps` in order once (later calls get the same promise), the
 * whole bounded by the shutdown deadline of `config.shutdownGraceMs`, so an unreachable
 * backend cannot hang it.
 */
export function closeOnceInSteps(config: ExecutorConfig, logger: Logger, steps: readonly CloseStep[]): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= closeSteps(steps, Date.now() + shutdownDeadlineMs(config.shutdownGraceMs), logger));
}

/** What a started wiring hands to {@link runningExecutor}. */
export interface RunningParts {
  readonly config: ExecutorConfig;
  /** Undefined for a worker, which opens no listener. */
  readonly listener: RunningA2AServer | undefined;
  readonly grpc: RunningGrpcServer | undefined;
  /** The root agent's handler. */
  readonly handler: RequestHandler;
  /** The agents served now; called on every read of {@link RunningExecutor.agents}. */
  readonly agents: () => ReadonlyArray<ServedAgentInfo>;
  readonly close: () => Promise<void>;
}

/**
 * The {@link RunningExecutor} of a started wiring. `agents` is a live getter (an agent
 * registry adds and removes agents while the service runs); `close` is a plain property so
 * `startExecutor` can replace it in place.
 */
export function runningExecutor(parts: RunningParts): RunningExecutor {
  const { config, listener, grpc } = parts;
  return {
    url: listener?.url ?? '',
    endpoints: endpointsAt('', config.basePath),
    grpc: grpc && { host: grpc.host, port: grpc.port, url: grpc.url },
    config,
    handler: parts.handler,
    get agents() {
      return parts.agents();
    },
    server: listener?.server,
    close: parts.close,
  };
}
