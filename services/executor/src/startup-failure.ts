import { ConfigError, defaultConfig, type ExecutorConfig } from './config.js';
import { AgentModuleError } from './load-agent.js';
import { GrpcListenError } from './grpc-listener.js';

/** The one line and the exit code a failed start ends with. */
export interface StartupFailure {
  readonly message: string;
  readonly exitCode: 1 | 2;
}

/**
 * Maps what made the start fail to the README's exit codes: a bad configuration (including
 * an agent's settings, only checked when the agents are built) is 2, like one caught while
 * reading the configuration; anything the configuration could not foresee (a port in use, a
 * missing agent module, a store that cannot be reached) is 1. A port problem names the
 * settings that choose the port, as the gRPC listener's message does, and the default port
 * says it is the default (a second instance that did not set its own).
 */
export function startupFailure(error: unknown, config: Pick<ExecutorConfig, 'host' | 'port'>): StartupFailure {
  if (error instanceof ConfigError) return { message: error.message, exitCode: 2 };
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `Cannot listen on ${config.host}:${config.port}`;
  const hint = '(set port / PORT / --port; 0 picks a free port)';
  const usual = config.port === defaultConfig().port ? `; ${config.port} is the default HTTP port, so each instance on one machine needs its own PORT` : '';
  if (code === 'EADDRINUSE') return { message: `${where}: the address is already in use${usual} ${hint}`, exitCode: 1 };
  if (code === 'EACCES') return { message: `${where}: permission denied ${hint}`, exitCode: 1 };
  if (error instanceof AgentModuleError || error instanceof GrpcListenError) return { message: error.message, exitCode: 1 };
  return { message: `Cannot start: ${(error as Error | undefined)?.message ?? String(error)}`, exitCode: 1 };
}
