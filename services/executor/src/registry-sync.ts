import { closeExecutor } from '@a2a-polyglot/bridges';
import type { AgentRegistryWatch, AgentRow, PostgresAgentRegistry } from '@a2a-polyglot/stores/postgres';
import type { AgentDirectory } from './agent-directory.js';
import { createAgent, type CreateAgentsOptions } from './agents.js';
import type { ExecutorConfig } from './config.js';
import { requiredSetting } from './config/derived.js';
import { withAgentDefaults } from './config/merge.js';
import { parseAgentEntry } from './config/parse.js';

/** The running link between the registry table and the served agents. */
export interface RegistrySync {
  /** Re-reads the table now and applies it (also what a notification and the resync timer do). */
  resync(): Promise<void>;
  /** Stops listening, waits for removed agents to drain, closes the connections. */
  close(): Promise<void>;
}

/**
 * Serves the agents of the PostgreSQL registry (`config.agentRegistry`) next to the config
 * file's: migrates the table, applies it once before returning (so a started instance serves
 * what the table holds), then re-applies it on every NOTIFY, on every reconnect of the
 * listening connection and every `resyncMs`.
 *
 * Applying = diffing the enabled rows with what the registry put up before:
 * - a new row is built like a config entry (same checks, same settings precedence: row
 *   `settings` → `handlers.<name>` → environment → defaults) and mounted on every binding;
 * - a deleted or disabled row's agent is removed (its running tasks get `shutdownGraceMs`, then
 *   fail with a status message naming the removal; see {@link AgentDirectory.remove});
 * - a changed row (`updated_at`) is removed and built again;
 * - a row whose id a config file agent already has is ignored (the file wins), with a warning;
 * - a row that fails its checks is skipped with a warning (once per version); the others serve.
 */
export async function startRegistrySync(config: ExecutorConfig, directory: AgentDirectory, options: CreateAgentsOptions): Promise<RegistrySync> {
  // The driver is loaded only here (as for the task store), so a service without a registry never loads `pg`.
  const postgres = require('@a2a-polyglot/stores/postgres') as typeof import('@a2a-polyglot/stores/postgres');
  const { redactUrl } = require('@a2a-polyglot/stores') as typeof import('@a2a-polyglot/stores');
  const { schema, resyncMs } = config.agentRegistry;
  const url = requiredSetting(config.agentRegistry.url, 'agentRegistry.url');
  const logger = options.logger;
  // Two connections: one held for LISTEN, one for the reads.
  const pool = postgres.createPostgresPool({ url, maxConnections: 2, logger });
  const fileIds = new Set(config.agents.map((a) => a.id));
  /** What the registry serves now: row id → the row's updated_at it was built from. */
  const served = new Map<string, string>();
  /** Rows skipped as invalid, by id → updated_at, so each version is reported once. */
  const rejected = new Map<string, string>();
  let watch: AgentRegistryWatch | undefined;

  const apply = async (rows: readonly AgentRow[]): Promise<void> => {
    const wanted = new Map(rows.filter((r) => r.enabled && !fileIds.has(r.id)).map((r) => [r.id, r]));
    for (const row of rows) if (fileIds.has(row.id) && rejected.get(row.id) !== row.updatedAt) warnOnce(row, 'a config file agent has this id (the file wins)');
    for (const [id, updatedAt] of served) {
      const row = wanted.get(id);
      if (row && row.updatedAt === updatedAt) continue;
      served.delete(id);
      void directory.remove(id, row ? 'its registry row changed' : 'its registry row was deleted or disabled');
    }
    for (const row of wanted.values()) {
      if (served.has(row.id) || rejected.get(row.id) === row.updatedAt) continue;
      try {
        const where = `agent registry row ${JSON.stringify(row.id)}`;
        const entry = withAgentDefaults(parseAgentEntry({ ...row.card, id: row.id, handler: row.handler, settings: row.settings }, where, undefined));
        const agent = await createAgent(entry, `${where} settings`, config, options);
        if (directory.get(row.id)) {
          await closeExecutor(agent.executor);
          continue;
        }
        directory.add(agent);
        served.set(row.id, row.updatedAt);
        rejected.delete(row.id);
        logger.info({ agentId: row.id, handler: row.handler }, 'Agent added from the registry');
      } catch (error) {
        warnOnce(row, (error as Error)?.message ?? String(error));
      }
    }
  };
  const warnOnce = (row: AgentRow, why: string) => {
    rejected.set(row.id, row.updatedAt);
    logger.warn({ agentId: row.id, reason: why }, 'Agent registry row not served');
  };

  // Coalesces bursts: one pass at a time, and at most one more queued behind it.
  let pass: Promise<void> | undefined;
  let again = false;
  const resync = (): Promise<void> => {
    if (pass) {
      again = true;
      return pass;
    }
    pass = (async () => {
      do {
        again = false;
        try {
          await apply(await registry.list());
        } catch (error) {
          logger.warn({ err: (error as Error)?.message ?? String(error) }, 'Agent registry: reading the table failed; keeping the agents served now');
        }
      } while (again);
    })().finally(() => (pass = undefined));
    return pass;
  };

  let registry: PostgresAgentRegistry;
  try {
    await postgres.migratePostgres(pool, { schema });
    registry = new postgres.PostgresAgentRegistry(pool, { schema, logger });
    await apply(await registry.list());
  } catch (error) {
    await pool.end().catch(() => undefined);
    await Promise.all([...served.keys()].map((id) => directory.remove(id, 'the agent registry could not start')));
    throw new Error(`Cannot open the agent registry at ${redactUrl(url)} (schema ${schema}): ${(error as Error).message}`);
  }
  watch = registry.watch(() => void resync(), { resyncMs });

  let closing: Promise<void> | undefined;
  return {
    resync,
    close: () =>
      (closing ??= (async () => {
        await watch?.close();
        await pass;
        await directory.drained();
        await pool.end();
      })()),
  };
}
