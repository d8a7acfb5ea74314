import type { Logger } from '@a2a-polyglot/core';
import { startExecutor, type RunningExecutor } from '@a2a-polyglot/executor';

/** Where the fuzzers send their inputs: one real executor on loopback, every binding on. */
export interface FuzzTarget {
  /** `http://127.0.0.1:port` */
  readonly httpUrl: string;
  /** JSON-RPC endpoint URL. */
  readonly jsonRpcUrl: string;
  /** REST base URL (the routes hang below it). */
  readonly restUrl: string;
  /** WebSocket upgrade URL. */
  readonly wsUrl: string;
  /** gRPC `host:port`. */
  readonly grpcUrl: string;
  /**
   * The memory the server is configured to keep at most (the store's byte budget and the event
   * log's): what the resource oracle lets RSS grow by, plus its margin.
   */
  readonly memoryBudgetBytes: number;
  /** Error-level log lines the server wrote while fuzzed (each is an unexpected failure). */
  readonly loggedErrors: string[];
  close(): Promise<void>;
}

/**
 * Starts the executor with the demo agent as `npm start` runs it, tuned so a fuzz run stays
 * fast and its memory meaningful: no chunk delay, small byte budgets for the in-memory store
 * and event log (32 MiB each) and a short event-log retention (so what the fuzz creates saturates quickly and any further growth is a
 * leak), and push notifications off (fuzzed webhook URLs must never make the server call out).
 */
export async function startFuzzTarget(): Promise<FuzzTarget> {
  const loggedErrors: string[] = [];
  const logger: Logger = {
    debug() {},
    info() {},
    warn() {},
    error(first: object | string, message?: string) {
      loggedErrors.push(typeof first === 'string' ? first : `${message ?? ''} ${JSON.stringify(first)}`);
    },
    child: () => logger,
  };
  const storeBytes = 32 * 1024 * 1024;
  const eventLogBytes = 32 * 1024 * 1024;
  const running: RunningExecutor = await startExecutor(
    {
      host: '127.0.0.1',
      port: 0,
      grpcPort: 0,
      grpcHost: '127.0.0.1',
      logLevel: 'error',
      demo: { chunkDelayMs: 0 },
      store: { memoryMaxBytes: storeBytes },
      eventLog: { retentionMs: 1000, memoryMaxBytes: eventLogBytes },
      agent: { capabilities: { pushNotifications: false } },
    },
    { logger },
  );
  const base = running.url.replace(/\/$/, '');
  if (!running.grpc) throw new Error('the fuzz target needs its gRPC listener');
  return {
    httpUrl: base,
    jsonRpcUrl: `${base}${running.endpoints.jsonRpc}`,
    restUrl: `${base}${running.endpoints.rest}`,
    wsUrl: `${base.replace(/^http/, 'ws')}${running.config.basePath}/ws`,
    grpcUrl: running.grpc.url,
    memoryBudgetBytes: storeBytes + eventLogBytes,
    loggedErrors,
    close: () => running.close(),
  };
}
