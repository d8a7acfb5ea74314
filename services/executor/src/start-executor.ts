import { ApiKeyAuthenticator, consoleLogger, RequestHandler, type AgentExecutor, type Logger } from '@a2a-polyglot/core';
import { cardInterfaces, startA2AServer } from '@a2a-polyglot/server';
import type { AgentCard } from '@a2a-polyglot/model';
import type { Server } from 'node:http';
import { openBackends } from './backends.js';
import { buildAgentCard } from './card.js';
import { resolveConfig, type ExecutorConfig, type ExecutorConfigInput } from './config.js';
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
  readonly config: ExecutorConfig;
  readonly handler: RequestHandler;
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

  let running: Awaited<ReturnType<typeof startA2AServer>>;
  try {
    if (backends.handlerOptions.cluster) {
      // The startup sweep: fail at once what this instance (same id) ran when it last stopped.
      const failed = await handler.recoverAbandoned({ includeOwn: true });
      logger.info(`Storage: ${backends.description}`, failed > 0 ? { recoveredTasks: failed } : undefined);
    }
    running = await startA2AServer({
      handler,
      host: resolved.host,
      port: resolved.port,
      basePath: resolved.basePath,
      publicBaseUrl: resolved.publicBaseUrl,
      trustProxy: resolved.trustProxy,
      maxBodyBytes: resolved.maxBodyBytes,
      sseHeartbeatMs: resolved.sseHeartbeatMs,
      logger,
    });
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

  return {
    url: running.url,
    endpoints: {
      card: '/.well-known/agent-card.json',
      jsonRpc: `${resolved.basePath}/rpc`,
      rest: resolved.basePath || '/',
    },
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
function extendedCard(card: AgentCard, config: ExecutorConfig): AgentCard {
  if (!config.publicBaseUrl) return card;
  return { ...card, supportedInterfaces: cardInterfaces(card, config.publicBaseUrl, config.basePath, []) };
}
