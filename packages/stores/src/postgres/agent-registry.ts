import { silentLogger, type Logger } from '@a2a-polyglot/core';
import type { Pool, PoolClient } from 'pg';
import { agentChannel } from './migrations.js';
import { quoteSchema } from './pool.js';
import type { AgentRegistryListOptions, AgentRegistrySource, AgentRegistryWatch, AgentRow } from '../agent-registry.js';

export type { AgentRow, AgentRegistryWatch } from '../agent-registry.js';

/** Options of {@link PostgresAgentRegistry}. */
export interface AgentRegistryOptions {
  /** Schema holding `a2a_agents` (see `migratePostgres`). Default `public`. */
  readonly schema?: string;
  readonly logger?: Logger;
  /** Default `resyncMs` of {@link PostgresAgentRegistry.watch}: 30 s. */
  readonly resyncMs?: number;
}

/** Longest wait between two attempts to re-open the listening connection. */
const MAX_RELISTEN_DELAY_MS = 10_000;

/**
 * The agent registry table `a2a_agents` (created by `migratePostgres`): reading its rows, and
 * being told when they change. Every INSERT, UPDATE, DELETE or TRUNCATE fires a NOTIFY on
 * {@link agentChannel}; {@link watch} LISTENs on one connection of the pool and re-reads on
 * each, and also re-reads every `resyncMs` (a notification is lost when the listening
 * connection drops, or when a row is written with triggers off).
 */
export class PostgresAgentRegistry implements AgentRegistrySource {
  private readonly table: string;
  private readonly channel: string;
  private readonly logger: Logger;
  private readonly resyncMs: number;

  constructor(
    private readonly pool: Pool,
    options: AgentRegistryOptions = {},
  ) {
    const schema = options.schema ?? 'public';
    this.table = `${quoteSchema(schema)}.a2a_agents`;
    this.channel = agentChannel(schema);
    this.logger = options.logger ?? silentLogger;
    this.resyncMs = options.resyncMs ?? 30_000;
  }

  /**
   * Every row, enabled or not, by id. A card longer than `maxCardBytes` (bytes of its JSON
   * text) is measured by the server and left there: the row comes back with `card: {}` and its
   * `cardBytes`, so one oversize row cannot make every instance read and parse megabytes on
   * every resync. Unset: every card is read.
   */
  async list(options: AgentRegistryListOptions = {}): Promise<AgentRow[]> {
    const { rows } = await this.pool.query<{
      id: string;
      handler: string;
      settings: Record<string, unknown>;
      card: Record<string, unknown> | null;
      card_bytes: number;
      enabled: boolean;
      updated_at: Date;
    }>(
      `SELECT id, handler, settings, CASE WHEN $1::integer IS NULL OR octet_length(card::text) <= $1::integer THEN card END AS card,
        octet_length(card::text) AS card_bytes, enabled, updated_at FROM ${this.table} ORDER BY id`,
      [options.maxCardBytes ?? null],
    );
    return rows.map((r) => ({
      id: r.id,
      handler: r.handler,
      settings: r.settings ?? {},
      card: r.card ?? {},
      cardBytes: r.card_bytes ?? 0,
      enabled: r.enabled,
      updatedAt: r.updated_at.toISOString(),
    }));
  }

  /**
   * Calls `onChange` (with what prompted it) whenever the rows may have changed: on every
   * notification, each time the listening connection is (re)opened (changes made while it was
   * down were not announced), and every `resyncMs` (0: never; default the constructor's
   * `resyncMs`). `onChange` re-reads with
   * {@link list}; calls may come close together, so it should coalesce them.
   */
  watch(onChange: (why: string) => void, options: { readonly resyncMs?: number } = {}): AgentRegistryWatch {
    const resyncMs = options.resyncMs ?? this.resyncMs;
    let closed = false;
    let client: PoolClient | undefined;
    let retry: NodeJS.Timeout | undefined;
    let failures = 0;
    const onNotification = (message: { channel: string; payload?: string }) => {
      if (message.channel === this.channel) onChange(`notification ${message.payload ?? ''}`.trim());
    };
    // Hand-written because pg has no re-connecting LISTEN and no such package is installed:
    // open, LISTEN, and on any loss wait (1 s doubling to 10 s) and start over.
    const listen = async (): Promise<void> => {
      if (closed) return;
      try {
        const opened = await this.pool.connect();
        opened.on('notification', onNotification);
        opened.once('error', (error) => lost(opened, error));
        await opened.query(`LISTEN "${this.channel}"`);
        if (closed) return opened.release();
        client = opened;
        failures = 0;
        onChange('listening');
      } catch (error) {
        schedule(error);
      }
    };
    const lost = (broken: PoolClient, error: Error) => {
      broken.off('notification', onNotification);
      if (client === broken) client = undefined;
      broken.release(error);
      schedule(error);
    };
    const schedule = (error: unknown) => {
      if (closed) return;
      const delay = Math.min(1000 * 2 ** failures++, MAX_RELISTEN_DELAY_MS);
      this.logger.warn({ err: (error as Error)?.message ?? String(error), retryInMs: delay }, 'Agent registry: listening for changes failed; retrying');
      retry = setTimeout(() => void listen(), delay);
      retry.unref();
    };
    const resync = resyncMs > 0 ? setInterval(() => onChange('resync'), resyncMs) : undefined;
    resync?.unref();
    void listen();
    return {
      close: async () => {
        closed = true;
        if (resync) clearInterval(resync);
        if (retry) clearTimeout(retry);
        const open = client;
        client = undefined;
        if (!open) return;
        open.off('notification', onNotification);
        try {
          await open.query(`UNLISTEN "${this.channel}"`);
          open.release();
        } catch (error) {
          open.release(error as Error);
        }
      },
    };
  }
}
