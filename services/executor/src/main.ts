#!/usr/bin/env node
/**
 * The service entry point (`node dist/main.js`, `npm start` at the repo root): reads the
 * configuration, serves the agent, and shuts down gracefully on SIGINT/SIGTERM. Every startup
 * problem ends in one line on stderr and a non-zero exit, never a stack trace.
 */
import { logVerbosity, setLogVerbosity } from '@grpc/grpc-js';
import { ConfigError, inspectorEnabled, loadConfig, type LoadedConfig } from './config.js';
import { createLogger } from './logger.js';
import { startExecutor, type RunningExecutor } from './start-executor.js';
import { shutdownDeadlineMs } from './shutdown-deadline.js';
import { startupFailure } from './startup-failure.js';
import { usageText } from './usage.js';
import { opensListeners } from './worker-role.js';

/** How long past the shutdown deadline the process waits for close() before exiting 1 anyway. */
const BACKSTOP_SLACK_MS = 1000;

async function main(): Promise<void> {
  // grpc-js prints its own lines to stderr (e.g. "No address added out of total 1 resolved"
  // ahead of our one-line message for a taken gRPC port); our messages say it better.
  // GRPC_VERBOSITY, when set, still decides.
  if (!process.env.GRPC_VERBOSITY) setLogVerbosity(logVerbosity.NONE);
  let loaded: LoadedConfig;
  try {
    loaded = loadConfig();
  } catch (error) {
    return exitWith(error instanceof ConfigError ? error.message : `Cannot load configuration: ${String(error)}`, 2);
  }
  if (loaded.help) {
    console.log(usageText());
    return;
  }
  const { config } = loaded;
  const logger = createLogger(config.logLevel, undefined, config.logFormat);

  let running: RunningExecutor;
  try {
    running = await startExecutor(config, { logger });
  } catch (error) {
    const { message, exitCode } = startupFailure(error, config);
    return exitWith(message, exitCode);
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn(`Received ${signal} again; exiting without waiting for running tasks`);
      process.exit(1);
    }
    stopping = true;
    logger.info(`Received ${signal}; shutting down (running tasks get ${config.shutdownGraceMs} ms)`);
    // The backstop: close() bounds each of its steps by this deadline; should anything else
    // still hold it, the process exits 1 shortly after rather than waiting for a second signal.
    const deadlineMs = shutdownDeadlineMs(config.shutdownGraceMs);
    setTimeout(() => {
      logger.error(`Shutdown did not finish within ${deadlineMs} ms; exiting`);
      process.exit(1);
    }, deadlineMs + BACKSTOP_SLACK_MS).unref();
    running.close().then(
      () => {
        logger.info('Stopped');
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ err: error }, 'Shutdown failed');
        process.exit(1);
      },
    );
  };
  // Before the listening line: whoever waits for that line may signal at once.
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  if (!opensListeners(config)) {
    // A worker binds no port: the line names what it runs, never a URL.
    const agents = config.agents.length > 0 ? config.agents.map((a) => a.id) : [config.agentModule ?? 'built-in demo agent'];
    logger.info(
      { role: config.role, agents, ...(loaded.configFile && { configFile: loaded.configFile }) },
      `A2A worker started: runs queued tasks of ${agents.join(', ')}; no listener (role worker)`,
    );
    return;
  }
  const { url, endpoints, grpc } = running;
  const publicBase = config.publicBaseUrl;
  const rootEntry = config.agents.find((a) => a.id === config.defaultAgent) ?? config.agents[0];
  const rootName = rootEntry?.name ?? running.config.agent.name;
  const grpcText = grpc ? `, gRPC ${grpc.url}` : ', gRPC off';
  logger.info(
    {
      url,
      card: `${url}${endpoints.card}`,
      jsonRpc: `${url}${endpoints.jsonRpc}`,
      rest: `${url}${endpoints.rest}`,
      grpc: grpc ? grpc.url : false,
      ...(publicBase && { publicBaseUrl: publicBase }),
      ...(config.agents.length > 0
        ? { agents: config.agents.map((a) => ({ id: a.id, handler: a.handler, card: `${url}/agents/${a.id}/.well-known/agent-card.json` })) }
        : { agent: config.agentModule ?? 'built-in demo agent' }),
      ...(loaded.configFile && { configFile: loaded.configFile }),
    },
    `A2A agent "${rootName}" listening on ${url}: card ${url}${endpoints.card}, JSON-RPC ${url}${endpoints.jsonRpc}, REST ${url}${endpoints.rest}${grpcText}`,
  );
  if (inspectorEnabled(config)) logger.info(`Inspector: open ${url}/inspector in a browser`);
}

function exitWith(message: string, code: number): void {
  console.error(message);
  process.exitCode = code;
}

void main();
