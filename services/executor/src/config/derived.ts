/**
 * Answers that depend on several fields of a resolved configuration (which store, which event
 * log, where gRPC listens), computed in one place so the validation, the backends and the
 * listeners agree on them.
 */
import { isLoopbackAddress } from '@a2a-polyglot/core';
import { DEFAULT_GRPC_PORT } from './defaults.js';
import { ConfigError } from './errors.js';
import type { EventLogConfig, ExecutorConfig, StoreConfig } from './types.js';

/**
 * Where the gRPC listener binds, or undefined when gRPC is off: `grpcHost` (default `host`)
 * and `grpcPort` (default {@link DEFAULT_GRPC_PORT}, or 0 when `port` is 0).
 */
export function grpcListenAddress(config: Pick<ExecutorConfig, 'host' | 'port' | 'grpcHost' | 'grpcPort'>): { host: string; port: number } | undefined {
  if (config.grpcPort === false) return undefined;
  return { host: config.grpcHost ?? config.host, port: config.grpcPort ?? (config.port === 0 ? 0 : DEFAULT_GRPC_PORT) };
}

/**
 * A setting another one makes required (`store.url` for the postgres store, `eventLog.url`
 * for redis, ...), as a string: the validation already refused a configuration without it,
 * so this narrows the type, with a clear error should a caller have skipped the validation.
 */
export function requiredSetting(value: string | undefined, path: string): string {
  if (!value) throw new ConfigError(`Invalid configuration: ${path} is not set`);
  return value;
}

/** The task store a configuration selects (see {@link StoreConfig.kind}). */
export function storeKind(config: ExecutorConfig): 'memory' | 'sqlite' | 'postgres' | 'dynamodb' {
  return config.store.kind ?? (config.store.url ? 'postgres' : config.store.path ? 'sqlite' : config.store.table ? 'dynamodb' : 'memory');
}

/** The agent registry a configuration selects (see `agentRegistry.kind`), or undefined for none. */
export function agentRegistryKind(config: ExecutorConfig): 'postgres' | 'dynamodb' | undefined {
  const registry = config.agentRegistry;
  return registry.kind ?? (registry.url ? 'postgres' : registry.table ? 'dynamodb' : undefined);
}

/** The event log a configuration selects (see {@link EventLogConfig.kind}). */
export function eventLogKind(config: ExecutorConfig): 'memory' | 'redis' {
  return config.eventLog.kind ?? (config.eventLog.url ? 'redis' : 'memory');
}

/**
 * Whether `/inspector` is served: `inspector` when set, else exactly when the listener is on
 * loopback (`localhost`, 127.0.0.0/8, ::1), where only this machine can open the page.
 */
export function inspectorEnabled(config: Pick<ExecutorConfig, 'host' | 'inspector'>): boolean {
  return config.inspector ?? isLoopbackHost(config.host);
}

/** `localhost` or a loopback address (127.0.0.0/8, ::1, bracketed or not): only this machine reaches it. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare.toLowerCase() === 'localhost' || isLoopbackAddress(bare);
}
