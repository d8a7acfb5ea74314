/**
 * Access to the real PostgreSQL and Redis the durable suites run against. URLs come from
 * A2A_TEST_POSTGRES_URL and A2A_TEST_REDIS_URL; when one is unset its suites are skipped with a
 * loud notice (CI sets both and fails when the services are unreachable). Every suite works in
 * its own schema / key prefix, so parallel runs never collide, and removes it afterwards.
 */
import { createPostgresPool } from '@a2a-polyglot/stores/postgres';
import { RedisConnections } from '@a2a-polyglot/stores/redis';
import type { Pool } from 'pg';

export const POSTGRES_URL = process.env.A2A_TEST_POSTGRES_URL || undefined;
export const REDIS_URL = process.env.A2A_TEST_REDIS_URL || undefined;

const warned = new Set<string>();
function notice(variable: string, what: string): void {
  if (warned.has(variable)) return;
  warned.add(variable);
  console.warn(`\n!!!!!!!!\n!!! ${variable} is not set: the ${what} suites are SKIPPED.\n!!! Set it (e.g. ${variable === 'A2A_TEST_POSTGRES_URL' ? 'postgres://postgres@127.0.0.1:5432/test' : 'redis://127.0.0.1:6379'}) to run them.\n!!!!!!!!\n`);
}

/** `describe` when PostgreSQL is configured, else a skipped describe plus a loud notice. */
export function describeWithPostgres(name: string, body: () => void): void {
  if (POSTGRES_URL) return describe(name, body);
  notice('A2A_TEST_POSTGRES_URL', 'PostgreSQL');
  describe.skip(name, body);
}

/** `describe` when Redis is configured, else a skipped describe plus a loud notice. */
export function describeWithRedis(name: string, body: () => void): void {
  if (REDIS_URL) return describe(name, body);
  notice('A2A_TEST_REDIS_URL', 'Redis');
  describe.skip(name, body);
}

/** `describe` when both are configured. */
export function describeWithPostgresAndRedis(name: string, body: () => void): void {
  if (POSTGRES_URL && REDIS_URL) return describe(name, body);
  if (!POSTGRES_URL) notice('A2A_TEST_POSTGRES_URL', 'PostgreSQL');
  if (!REDIS_URL) notice('A2A_TEST_REDIS_URL', 'Redis');
  describe.skip(name, body);
}

/** A name no other run uses: letters, digits and _ (valid as a schema and in keys). */
export function uniqueName(stem: string): string {
  return `${stem}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

/** A fresh schema on the test database, with a pool for it; `drop()` removes both. */
export async function freshSchema(stem = 'a2a_test'): Promise<{ schema: string; pool: Pool; drop: () => Promise<void> }> {
  const schema = uniqueName(stem);
  const pool = createPostgresPool({ url: POSTGRES_URL!, maxConnections: 4 });
  return {
    schema,
    pool,
    drop: async () => {
      await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
      await pool.end();
    },
  };
}

/** Connects to the test Redis; `cleanup(prefix)` deletes every key under a prefix. */
export async function redisConnections(url = REDIS_URL!): Promise<RedisConnections> {
  return RedisConnections.connect({ url });
}

/** Deletes the keys a test wrote under `prefix`. */
export async function deleteKeys(redis: RedisConnections, prefix: string): Promise<void> {
  let cursor = '0';
  do {
    const [next, keys] = await redis.commands.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) await redis.commands.del(...keys);
  } while (cursor !== '0');
}
