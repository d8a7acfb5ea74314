import { ApiKeyAuthenticator, consoleLogger, RequestHandler, type AgentExecutor, type Logger } from '@a2a-polyglot/core';
import { startGrpcServer, type RunningGrpcServer } from '@a2a-polyglot/grpc';
import { cardInterfaces, startA2AServer } from '@a2a-polyglot/server';
import type { AgentCard, AgentInterface } from '@a2a-polyglot/model';
import type { Server } from 'node:http';
import { buildAgentCard } from './card.js';
import { grpcListenAddress, resolveConfig, type ExecutorConfig, type ExecutorConfigInput } from './config.js';
import { createDemoAgent } from './demo-agent.js';
import { loadAgentModule } from './load-agent.js';

/** Extras for {@link startExecutor} that have no place in a config file. */
export interface StartExecutorOptions {
  /** Use this agent instead of `agentModule` / the demo agent (tests, embedding). */
  readonly executor?: AgentExecutor;
  /** Defaults to a console logger at `config.logLevel`. */
  readonly logger?: Logger;
}

/** A running executor service. */
export interface RunningExecutor {
  /** Where the listener is bound, e.g. `http://127.0.0.1:8080` (not the public URL). */
  readonly url: string;
  /** The agent card URL, JSON-RPC endpoint and REST base, relative to {@link url}. */
  readonly endpoints: { readonly card: string; readonly jsonRpc: string; readonly rest: string };
  /**
   * Where the gRPC listener is bound (`url` is `host:port`, the form a GRPC interface uses;
   * not the public address). Undefined when gRPC is off (`grpcPort: false`).
   */
  readonly grpc: { readonly host: string; readonly port: number; readonly url: string } | undefined;
  readonly config: ExecutorConfig;
  readonly handler: RequestHandler;
  readonly server: Server;
  /**
   * Graceful stop: new calls are refused, running tasks get `shutdownGraceMs` to finish and
   * are then failed with a status message subscribers can see, push deliveries are flushed,
   * and the listeners (HTTP and gRPC) close. Idempotent.
   */
  close(): Promise<void>;
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

/**
 * Starts the service in-process: the same wiring `main` uses, minus argv/env and signals.
 * `config` is a full or partial configuration (validated like a config file).
 */
export async function startExecutor(config: ExecutorConfigInput | ExecutorConfig = {}, options: StartExecutorOptions = {}): Promise<RunningExecutor> {
  const resolved = resolveConfig(config);
  const logger = options.logger ?? consoleLogger(resolved.logLevel);
  const executor =
    options.executor ??
    (resolved.agentModule
      ? await loadAgentModule(resolved.agentModule, { config: resolved, logger })
      : createDemoAgent({ chunkDelayMs: resolved.demo.chunkDelayMs }));

  // Bound below, before any request can ask for a card.
  let grpc: RunningGrpcServer | undefined;
  const grpcInterfaces = (publicBase: string): AgentInterface[] => (grpc ? [grpcInterface(resolved, publicBase, grpc.port)] : []);

  const card = buildAgentCard(resolved);
  const apiKeys = resolved.auth.apiKeys;
  const handler = new RequestHandler({
    card,
    executor,
    logger,
    authenticator: Object.keys(apiKeys).length > 0 ? new ApiKeyAuthenticator({ keys: apiKeys, header: resolved.auth.header }) : undefined,
    extendedCard: resolved.agent.capabilities.extendedAgentCard ? () => extendedCard(card, resolved, grpcInterfaces) : undefined,
    allowPrivateWebhooks: resolved.push.allowPrivateNetworks,
  });

  // gRPC first: the card lists its port, so it must be bound before the first card request.
  grpc = await startGrpc(handler, resolved, logger);

  let running: Awaited<ReturnType<typeof startA2AServer>>;
  try {
    running = await startA2AServer({
      handler,
      host: resolved.host,
      port: resolved.port,
      basePath: resolved.basePath,
      publicBaseUrl: resolved.publicBaseUrl,
      trustProxy: resolved.trustProxy,
      maxBodyBytes: resolved.maxBodyBytes,
      sseHeartbeatMs: resolved.sseHeartbeatMs,
      extraInterfaces: grpcInterfaces,
      logger,
    });
  } catch (error) {
    await grpc?.close(0);
    throw error;
  }

  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // The handler first (refuse new calls, let tasks finish or fail them, flush pushes),
      // so streams on every binding see the final events; then both listeners.
      await handler.shutdown(resolved.shutdownGraceMs);
      await Promise.all([running.close(), grpc?.close(GRPC_CLOSE_GRACE_MS)]);
    })());

  return {
    url: running.url,
    endpoints: {
      card: '/.well-known/agent-card.json',
      jsonRpc: `${resolved.basePath}/rpc`,
      rest: resolved.basePath || '/',
    },
    grpc: grpc && { host: grpc.host, port: grpc.port, url: grpc.url },
    config: resolved,
    handler,
    server: running.server,
    close,
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

/** Starts the gRPC listener on the same RequestHandler, unless gRPC is off. */
async function startGrpc(handler: RequestHandler, config: ExecutorConfig, logger: Logger): Promise<RunningGrpcServer | undefined> {
  const address = grpcListenAddress(config);
  if (!address) return undefined;
  try {
    return await startGrpcServer({ handler, host: address.host, port: address.port, logger });
  } catch (error) {
    throw new GrpcListenError(address.host, address.port, error);
  }
}

/**
 * The card's GRPC interface: `grpcPublicUrl` verbatim when configured, otherwise the public
 * host (the hostname of `publicBaseUrl`, or of the request's Host when that is unset) with
 * the bound gRPC port, in the `host:port` form the spec gives for GRPC.
 */
export function grpcInterface(config: Pick<ExecutorConfig, 'grpcPublicUrl'>, publicBase: string, port: number): AgentInterface {
  const url = config.grpcPublicUrl ?? `${new URL(publicBase).hostname}:${port}`;
  return { protocolBinding: 'GRPC', url, protocolVersion: '1.0', tenant: '' };
}
