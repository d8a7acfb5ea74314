/**
 * The real PostgreSQL and Redis of the durable suites: URLs and `describeWithPostgresAndRedis`
 * from `@a2a-polyglot/testing` (skipped with a loud notice locally without them, failing under
 * CI). Each suite gets its own schema and key prefix; {@link cleanUp} removes them afterwards.
 */
import { Client } from 'pg';
import Redis from 'ioredis';
import { POSTGRES_URL, REDIS_URL } from '@a2a-polyglot/testing';

export { describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from '@a2a-polyglot/testing';

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
