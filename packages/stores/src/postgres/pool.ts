import { silentLogger, type Logger } from '@a2a-polyglot/core';
import { Pool, type PoolConfig } from 'pg';
import { redactUrl } from '../errors.js';

/** How to reach PostgreSQL. */
export interface PostgresOptions {
  /** `postgres://user:password@host:port/database` (libpq-style parameters work too). */
  readonly url: string;
  /** Schema holding the tables (created by the migrations). Default `public`. */
  readonly schema?: string;
  /** Most connections this process opens. Default 10. */
  readonly maxConnections?: number;
  /** How long a request waits for a connection before it fails with Unavailable. Default 5 s. */
  readonly connectTimeoutMs?: number;
  /** Client-side bound of one query, so a hung server fails requests instead of holding them. Default 10 s. */
  readonly queryTimeoutMs?: number;
  readonly logger?: Logger;
}

/**
 * A `pg` pool set up for a service that must survive PostgreSQL restarts: bounded waits for a
 * connection and for each query, and an `error` listener so a connection dropped while idle is
 * logged instead of crashing the process. Broken connections are discarded by the pool and
 * replaced on the next request, so the service recovers by itself when the server returns.
 */
export function createPostgresPool(options: PostgresOptions): Pool {
  const logger = options.logger ?? silentLogger;
  const config: PoolConfig = {
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
    query_timeout: options.queryTimeoutMs ?? 10_000,
    idleTimeoutMillis: 30_000,
    application_name: 'a2a-polyglot',
  };
  const pool = new Pool(config);
  let lastWarn = 0;
  pool.on('error', (error) => {
    // One line per 5 s at most: a server restart drops every idle connection at once.
    if (Date.now() - lastWarn < 5000) return;
    lastWarn = Date.now();
    logger.warn({ server: redactUrl(options.url), err: error.message }, 'PostgreSQL connection lost');
  });
  return pool;
}

/** A schema name safe to splice into SQL (quoted): letters, digits and `_`, not starting with a digit. */
export function quoteSchema(schema: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(schema)) throw new Error(`Invalid PostgreSQL schema name ${JSON.stringify(schema)}: use letters, digits and _`);
  return `"${schema}"`;
}
