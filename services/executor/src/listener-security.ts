import { readFileSync } from 'node:fs';
import type { RateLimiter } from '@a2a-polyglot/core';
import { createRateLimiter } from '@a2a-polyglot/server';
import { ServerCredentials } from '@grpc/grpc-js';
import type { ServerOptions as HttpsServerOptions } from 'node:https';
import { ConfigError, type ExecutorConfig } from './config.js';

/**
 * The executor's rate limiter from `rateLimit` (undefined when both limits are 0, the
 * default). With `redis` (the event log's command connection) every instance on that Redis
 * spends the same budgets, under the event log's key prefix (and `name`, for the budgets of
 * one agent, kept apart from the service-wide ones).
 */
export function rateLimiterFor(config: Pick<ExecutorConfig, 'rateLimit' | 'eventLog'>, redis?: unknown, name?: string): RateLimiter | undefined {
  const { addressPoints, addressWindowSec, identityPoints, identityWindowSec, maxKeys } = config.rateLimit;
  return createRateLimiter({
    perAddress: addressPoints > 0 ? { points: addressPoints, durationSeconds: addressWindowSec } : undefined,
    perIdentity: identityPoints > 0 ? { points: identityPoints, durationSeconds: identityWindowSec } : undefined,
    redis,
    keyPrefix: `${config.eventLog.prefix}:ratelimit${name ? `:${name}` : ''}`,
    maxKeys,
  });
}

/** TLS material of both listeners, read once at startup. */
export interface ListenerTls {
  /** `node:https` options of the HTTP listener (HTTPS and WSS). */
  readonly https: HttpsServerOptions;
  /** gRPC server credentials: TLS, and mutual TLS when a client CA is configured. */
  readonly grpc: ServerCredentials;
}

/**
 * Reads `tls` into listener options, or undefined when TLS is off. A file that cannot be read
 * is a configuration error naming the key, found at startup rather than on the first
 * handshake. The HTTP listener does not ask for client certificates (browsers and most HTTP
 * clients have none); gRPC, the service-to-service binding, requires one when `clientCaFile`
 * is set.
 */
export function listenerTls(config: Pick<ExecutorConfig, 'tls'>): ListenerTls | undefined {
  const { certFile, keyFile, clientCaFile } = config.tls;
  if (!certFile || !keyFile) return undefined;
  const cert = readPem(certFile, 'tls.certFile');
  const key = readPem(keyFile, 'tls.keyFile');
  const clientCa = clientCaFile ? readPem(clientCaFile, 'tls.clientCaFile') : null;
  return {
    https: { cert, key },
    grpc: ServerCredentials.createSsl(clientCa, [{ cert_chain: cert, private_key: key }], clientCa !== null),
  };
}

function readPem(path: string, key: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new ConfigError(`Invalid configuration: ${key} ${path} cannot be read: ${(error as Error).message}`);
  }
}
