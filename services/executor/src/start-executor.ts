import { resolveConfig, type ExecutorConfig, type ExecutorConfigInput } from './config.js';
import { createLogger } from './logger.js';
import type { RunningExecutor, StartExecutorOptions } from './running-executor.js';
import { startAgents } from './start-agents.js';
import { startupWarnings } from './startup-warnings.js';
import { startTelemetry } from './telemetry.js';

// The entry's public surface: what callers of `startExecutor` name, wherever it now lives.
export type { AgentEndpoints, RunningExecutor, ServedAgentInfo, StartExecutorOptions } from './running-executor.js';
export { GrpcListenError, grpcCardInterfaces, grpcInterface } from './grpc-listener.js';

/**
 * Starts the service in-process: the same wiring `main` uses, minus argv/env and signals.
 * `config` is a full or partial configuration (validated like a config file). One wiring for
 * one agent or several ({@link startAgents}); the OpenTelemetry SDK (when `OTEL_*` asks for
 * it) stops after the service.
 * Once listening, it warns about a listener beyond loopback without authentication or with a
 * card that would hand out loopback URLs ({@link startupWarnings}).
 */
export async function startExecutor(config: ExecutorConfigInput | ExecutorConfig = {}, options: StartExecutorOptions = {}): Promise<RunningExecutor> {
  const resolved = resolveConfig(config);
  const logger = options.logger ?? createLogger(resolved.logLevel, undefined, resolved.logFormat);
  const telemetry = startTelemetry(logger);
  try {
    const running = await startAgents(resolved, options, logger, telemetry);
    for (const warning of startupWarnings(resolved)) logger.warn(warning);
    // Replaced in place, not spread: `agents` is a live getter when an agent registry runs.
    if (telemetry) Object.defineProperty(running, 'close', { value: closeThen(running.close, () => telemetry.shutdown()) });
    return running;
  } catch (error) {
    await telemetry?.shutdown();
    throw error;
  }
}

/** `close`, then `after` (once, however often the result is called). */
function closeThen(close: () => Promise<void>, after: () => Promise<void>): () => Promise<void> {
  let closing: Promise<void> | undefined;
  return () => (closing ??= close().finally(after));
}
