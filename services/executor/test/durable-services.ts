/**
 * The real PostgreSQL and Redis of the durable suites: URLs from A2A_TEST_POSTGRES_URL and
 * A2A_TEST_REDIS_URL; unset ⇒ the suite is skipped with a loud notice. Each suite gets its own
 * schema and key prefix and removes them afterwards.
 */
import { Client } from 'pg';
import Redis from 'ioredis';

export const POSTGRES_URL = process.env.A2A_TEST_POSTGRES_URL || undefined;
export const REDIS_URL = process.env.A2A_TEST_REDIS_URL || undefined;

/** `describe` when both services are configured, else skipped with a loud notice. */
export function describeWithPostgresAndRedis(name: string, body: () => void): void {
  if (POSTGRES_URL && REDIS_URL) return describe(name, body);
  console.warn(`\n!!!!!!!!\n!!! A2A_TEST_POSTGRES_URL and/or A2A_TEST_REDIS_URL not set: "${name}" is SKIPPED.\n!!!!!!!!\n`);
  describe.skip(name, body);
}

/** A schema / key prefix no other run uses. */
export function uniqueName(stem: string): string {
  return `${stem}_${process.pid}_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
}

/** Drops the schema and deletes the keys a suite used. */
export async function cleanUp(schema: string, prefix: string): Promise<void> {
  const pg = new Client({ connectionString: POSTGRES_URL });
  await pg.connect();
  await pg.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).finally(() => pg.end());
  const redis = new Redis(REDIS_URL!);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
