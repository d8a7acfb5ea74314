import type { Pool } from 'pg';
import { latestVersion, pendingMigrations, type Migration, type MigrationResult } from '../migration.js';
import { quoteSchema } from './pool.js';

/**
 * The PostgreSQL schema, as ordered steps. Text columns that ListTasks sorts or compares use
 * the "C" collation: byte order, which for the ASCII ids and RFC 3339 timestamps the core
 * writes is exactly the in-memory store's string order, whatever the database's locale.
 */
export function postgresMigrations(schema: string): Migration[] {
  const s = quoteSchema(schema);
  return [
    {
      version: 1,
      name: 'tasks, push configs, leases',
      statements: [
        `CREATE TABLE ${s}.a2a_tasks (
          tenant text COLLATE "C" NOT NULL,
          id text COLLATE "C" NOT NULL,
          context_id text COLLATE "C" NOT NULL,
          owner text COLLATE "C",
          state integer NOT NULL,
          status_ts text COLLATE "C" NOT NULL,
          version bigint NOT NULL,
          task jsonb NOT NULL,
          lease_owner text,
          lease_expires_at timestamptz,
          updated_at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (tenant, id)
        )`,
        `CREATE INDEX a2a_tasks_newest ON ${s}.a2a_tasks (tenant, status_ts DESC, id DESC)`,
        `CREATE INDEX a2a_tasks_context_newest ON ${s}.a2a_tasks (tenant, context_id, status_ts DESC, id DESC)`,
        `CREATE INDEX a2a_tasks_leased ON ${s}.a2a_tasks (lease_expires_at) WHERE lease_owner IS NOT NULL`,
        `CREATE TABLE ${s}.a2a_push_configs (
          tenant text COLLATE "C" NOT NULL,
          task_id text COLLATE "C" NOT NULL,
          id text COLLATE "C" NOT NULL,
          position bigserial NOT NULL,
          config jsonb NOT NULL,
          PRIMARY KEY (tenant, task_id, id)
        )`,
      ],
    },
    {
      version: 2,
      name: 'agent registry',
      statements: [
        // One row per agent a multi-agent executor serves besides its config file's agents.
        `CREATE TABLE ${s}.a2a_agents (
          id text COLLATE "C" PRIMARY KEY,
          handler text NOT NULL,
          settings jsonb NOT NULL DEFAULT '{}'::jsonb,
          card jsonb NOT NULL DEFAULT '{}'::jsonb,
          enabled boolean NOT NULL DEFAULT true,
          updated_at timestamptz NOT NULL DEFAULT now()
        )`,
        // Every change is announced on a channel named after the schema, so each instance
        // re-reads the table at once (LISTEN); the payload says which row, for the logs.
        `CREATE FUNCTION ${s}.a2a_agents_notify() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          PERFORM pg_notify(${agentChannelSql(schema)}, json_build_object('op', TG_OP, 'id', CASE WHEN TG_OP = 'DELETE' THEN OLD.id ELSE NEW.id END)::text);
          RETURN NULL;
        END $$`,
        `CREATE TRIGGER a2a_agents_changed AFTER INSERT OR UPDATE OR DELETE ON ${s}.a2a_agents FOR EACH ROW EXECUTE FUNCTION ${s}.a2a_agents_notify()`,
        `CREATE TRIGGER a2a_agents_truncated AFTER TRUNCATE ON ${s}.a2a_agents FOR EACH STATEMENT EXECUTE FUNCTION ${s}.a2a_agents_notify()`,
      ],
    },
    {
      version: 3,
      name: 'idempotent sends',
      statements: [
        // One row per send seen within the idempotency window; the primary key is the claim.
        `CREATE TABLE ${s}.a2a_sends (
          principal text COLLATE "C" NOT NULL,
          tenant text COLLATE "C" NOT NULL,
          message_id text COLLATE "C" NOT NULL,
          body_hash text NOT NULL,
          task_id text,
          reply jsonb,
          expires_at bigint NOT NULL,
          PRIMARY KEY (principal, tenant, message_id)
        )`,
        `CREATE INDEX a2a_sends_expiry ON ${s}.a2a_sends (expires_at)`,
      ],
    },
    {
      version: 4,
      name: 'run queue',
      statements: [
        // One row per queued run, from its enqueue to the ack of its worker. `claimed_by` and
        // `lease_expires_at` are the claim; an expired claim is claimed again (`attempts` + 1).
        `CREATE TABLE ${s}.a2a_run_queue (
          id text COLLATE "C" PRIMARY KEY,
          agent text COLLATE "C" NOT NULL,
          tenant text COLLATE "C" NOT NULL,
          task_id text COLLATE "C" NOT NULL,
          run jsonb NOT NULL,
          attempts integer NOT NULL DEFAULT 0,
          claimed_by text,
          lease_expires_at timestamptz,
          enqueued_at timestamptz NOT NULL DEFAULT clock_timestamp()
        )`,
        `CREATE INDEX a2a_run_queue_claimable ON ${s}.a2a_run_queue (agent, enqueued_at)`,
        `CREATE INDEX a2a_run_queue_task ON ${s}.a2a_run_queue (tenant, task_id)`,
      ],
    },
  ];
}

/**
 * The NOTIFY channel of the agent registry in `schema` (`a2a_agents:<schema>`): one per schema,
 * so deployments sharing a database do not wake each other.
 */
export function agentChannel(schema: string): string {
  return `a2a_agents:${schema}`;
}

/** {@link agentChannel} as an SQL string literal (schema names are letters, digits and `_`). */
function agentChannelSql(schema: string): string {
  quoteSchema(schema);
  return `'${agentChannel(schema)}'`;
}

/**
 * Brings the schema up to date: creates it if needed and applies the missing steps in one
 * transaction, under an advisory lock so instances starting together migrate once. Refuses a
 * database whose schema is newer than this build. Safe to run at every startup.
 */
export async function migratePostgres(pool: Pool, options: { readonly schema?: string } = {}): Promise<MigrationResult> {
  const schema = options.schema ?? 'public';
  const s = quoteSchema(schema);
  const migrations = postgresMigrations(schema);
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock(72012, hashtext($1))', [schema]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}.a2a_schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${s}.a2a_schema_migrations`);
    const from = rows[0]?.version ?? 0;
    for (const migration of pendingMigrations(migrations, from, `PostgreSQL schema ${schema}`)) {
      for (const statement of migration.statements) await client.query(statement);
      await client.query(`INSERT INTO ${s}.a2a_schema_migrations (version, name) VALUES ($1, $2)`, [migration.version, migration.name]);
    }
    await client.query('COMMIT');
    return { from, to: latestVersion(migrations) };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
