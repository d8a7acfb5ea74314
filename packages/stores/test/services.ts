/**
 * Access to the real PostgreSQL and Redis the durable suites run against. URLs and the
 * `describeWith*` helpers come from `@a2a-polyglot/testing` (one rule for every package: run
 * when configured, skip loudly locally, fail under CI); here: a schema or key prefix per suite,
 * so parallel runs never collide, removed afterwards.
 */
import { createPostgresPool } from '@a2a-polyglot/stores/postgres';
import { RedisConnections } from '@a2a-polyglot/stores/redis';
import { POSTGRES_URL, REDIS_URL, uniqueName } from '@a2a-polyglot/testing';
import type { Pool } from 'pg';

export { describeWithPostgres, describeWithPostgresAndRedis, describeWithRedis, POSTGRES_URL, REDIS_URL, uniqueName } from '@a2a-polyglot/testing';

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
