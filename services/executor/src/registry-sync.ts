import type { Logger } from '@a2a-polyglot/core';
import type { AgentRegistrySource, AgentRegistryWatch, AgentRow } from '@a2a-polyglot/stores';
import type { AgentDirectory } from './agent-directory.js';
import { type CreateAgentsOptions, defaultRegistry } from './agents.js';
import type { ExecutorConfig } from './config.js';
import { agentRegistryKind, requiredSetting } from './config/derived.js';
import { loadBackend } from './load-backend.js';
import { registryModulePolicy } from './registry-modules.js';
import { buildRegistryRow, discardAgent } from './registry-row.js';

/** The running link between the registry table and the served agents. */
export interface RegistrySync {
  /**
   * Re-reads the table now and applies it (also what a notification and the resync timer do).
   * Resolves once removals are done and the builds of new rows have started: rows build in the
   * background, each on its own (see {@link startRegistrySync}).
   */
  resync(): Promise<void>;
  /** Stops listening, waits for the builds under way (each bounded by its deadline) and for removed agents to drain, closes the connections. */
  close(): Promise<void>;
}

/** An opened registry backend: its rows behind the shared interface, and how to let go of it. */
interface OpenedRegistry {
  readonly source: AgentRegistrySource;
  /** Where it is, for the startup error (a URL without its password, a table). */
  readonly where: string;
  close(): Promise<void>;
}

/**
 * Opens the configured registry backend (its driver loaded only now, as for the task store, so
 * a service without a registry never loads `pg` or the AWS SDK) and migrates its table. On
 * failure, throws `Cannot open the agent registry at <where>: <cause>` having released it.
 */
async function openRegistry(config: ExecutorConfig, logger: Logger): Promise<OpenedRegistry> {
  const { schema, resyncMs, table, endpoint, region, pollMs } = config.agentRegistry;
  let opened: OpenedRegistry;
  let migrate: () => Promise<unknown>;
  if (agentRegistryKind(config) === 'dynamodb') {
    const dynamo = loadBackend('dynamodb');
    const name = requiredSetting(table, 'agentRegistry.table');
    const client = dynamo.createDynamoClient({ region, endpoint });
    migrate = () => dynamo.migrateDynamo(client, { table: name });
    opened = {
      source: new dynamo.DynamoAgentRegistry(client, { table: name, logger, pollMs }),
      where: `DynamoDB table ${name}${endpoint ? ` at ${endpoint}` : ''}`,
      close: async () => client.destroy(),
    };
  } else {
    const postgres = loadBackend('postgres');
    const { redactUrl } = require('@a2a-polyglot/stores') as typeof import('@a2a-polyglot/stores');
    const url = requiredSetting(config.agentRegistry.url, 'agentRegistry.url');
    // Two connections: one held for LISTEN, one for the reads.
    const pool = postgres.createPostgresPool({ url, maxConnections: 2, logger });
    migrate = () => postgres.migratePostgres(pool, { schema });
    opened = {
      source: new postgres.PostgresAgentRegistry(pool, { schema, logger, resyncMs }),
      where: `${redactUrl(url)} (schema ${schema})`,
      close: () => pool.end(),
    };
  }
  try {
    await migrate();
  } catch (error) {
    await opened.close().catch(() => undefined);
    throw new Error(`Cannot open the agent registry at ${opened.where}: ${(error as Error).message}`);
  }
  return opened;
}

/**
 * Serves the agents of the registry (`config.agentRegistry`: a PostgreSQL table, or items of a
 * DynamoDB table) next to the config file's: migrates the table, applies it once before
 * returning (so a started instance serves what the table holds), then re-applies it whenever
 * the backend says the rows may have changed: PostgreSQL on every NOTIFY, on every reconnect
 * of the listening connection and every `resyncMs`; DynamoDB every `pollMs`.
 *
 * Applying = diffing the enabled rows with what the registry put up before:
 * - a new row is built like a config entry (same checks, same settings precedence: row
 *   `settings` → `handlers.<name>` → environment → defaults) and mounted on every binding. Each
 *   row builds on its own, off the pass that read the table, within `loadTimeoutMs`, so a
 *   module that never finishes loading holds only its own row; a `module` row loads only what
 *   {@link registryModulePolicy} allows;
 * - a deleted or disabled row's agent is removed (its running tasks get `shutdownGraceMs`, then
 *   fail with a status message naming the removal; see {@link AgentDirectory.remove});
 * - a changed row (`updated_at`) is removed and built again;
 * - a row whose id a config file agent already has is ignored (the file wins), with a warning;
 * - a row that cannot be built (its checks, its module, its deadline, a card over
 *   `maxCardBytes`) is served as an agent that answers Unavailable with the reason, and warned
 *   about once per version; the others serve.
 */
export async function startRegistrySync(config: ExecutorConfig, directory: AgentDirectory, options: CreateAgentsOptions): Promise<RegistrySync> {
  const { maxCardBytes } = config.agentRegistry;
  const logger = options.logger;
  // An embedder's own handlers are theirs to vet; the service's `module` handler follows the policy.
  const rowOptions: CreateAgentsOptions = { ...options, registry: options.registry ?? defaultRegistry(config, registryModulePolicy(config.agentRegistry)) };
  const opened = await openRegistry(config, logger);
  const registry = opened.source;
  const fileIds = new Set(config.agents.map((a) => a.id));
  /** The version (updated_at) of every row the registry has taken up, built, building or unavailable, by id. */
  const taken = new Map<string, { readonly updatedAt: string }>();
  /** Rows shadowed by a config file agent, by id → updated_at, so each version is reported once. */
  const shadowed = new Map<string, string>();
  /** Builds under way (close waits for them; each ends by its deadline). */
  const building = new Set<Promise<void>>();
  let stopped = false;
  let watch: AgentRegistryWatch | undefined;

  /** Builds `row` and serves what came of it, unless its version was superseded meanwhile. */
  const build = async (row: AgentRow, version: { readonly updatedAt: string }): Promise<void> => {
    const outcome = await buildRegistryRow(row, config, rowOptions);
    const agent = 'agent' in outcome ? outcome.agent : outcome.unavailable;
    if (stopped || taken.get(row.id) !== version || directory.get(row.id)) {
      if (agent) await discardAgent(agent, rowOptions);
      return;
    }
    if (agent) directory.add(agent);
    if ('agent' in outcome) logger.info({ agentId: row.id, handler: row.handler }, 'Agent added from the registry');
    else logger.warn({ agentId: row.id, reason: outcome.reason }, 'Agent registry row not served: its agent answers Unavailable');
  };

  /** Applies the table; returns the builds it started (startup waits for them, a resync does not). */
  const apply = (rows: readonly AgentRow[]): Promise<void>[] => {
    const wanted = new Map(rows.filter((r) => r.enabled && !fileIds.has(r.id)).map((r) => [r.id, r]));
    for (const row of rows) {
      if (!fileIds.has(row.id) || shadowed.get(row.id) === row.updatedAt) continue;
      shadowed.set(row.id, row.updatedAt);
      logger.warn({ agentId: row.id, reason: 'a config file agent has this id (the file wins)' }, 'Agent registry row not served');
    }
    for (const [id, version] of taken) {
      const row = wanted.get(id);
      if (row && row.updatedAt === version.updatedAt) continue;
      taken.delete(id);
      void directory.remove(id, row ? 'its registry row changed' : 'its registry row was deleted or disabled');
    }
    const started: Promise<void>[] = [];
    for (const row of wanted.values()) {
      if (taken.has(row.id)) continue;
      const version = { updatedAt: row.updatedAt };
      taken.set(row.id, version);
      const done: Promise<void> = build(row, version)
        .catch((error: unknown) => logger.warn({ agentId: row.id, err: error }, 'Agent registry: serving a row failed'))
        .finally(() => building.delete(done));
      building.add(done);
      started.push(done);
    }
    return started;
  };
  const list = () => registry.list({ maxCardBytes });

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
          apply(await list());
        } catch (error) {
          logger.warn({ err: (error as Error)?.message ?? String(error) }, 'Agent registry: reading the table failed; keeping the agents served now');
        }
      } while (again);
    })().finally(() => (pass = undefined));
    return pass;
  };

  try {
    await Promise.all(apply(await list()));
  } catch (error) {
    stopped = true;
    await opened.close().catch(() => undefined);
    await Promise.all([...taken.keys()].map((id) => directory.remove(id, 'the agent registry could not start')));
    throw new Error(`Cannot open the agent registry at ${opened.where}: ${(error as Error).message}`);
  }
  watch = registry.watch(() => void resync());

  let closing: Promise<void> | undefined;
  return {
    resync,
    close: () =>
      (closing ??= (async () => {
        await watch?.close();
        await pass;
        stopped = true;
        await Promise.all([...building]);
        await directory.drained();
        await opened.close();
      })()),
  };
}
