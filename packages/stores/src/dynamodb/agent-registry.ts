import { silentLogger, type Logger } from '@a2a-polyglot/core';
import { DeleteItemCommand, PutItemCommand, QueryCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { AgentRegistryListOptions, AgentRegistrySource, AgentRegistryWatch, AgentRow } from '../agent-registry.js';
import { guardedDynamo } from './errors.js';
import { AGENT_PK, AGENT_SK_PREFIX, ATTR } from './schema.js';

/** Options of {@link DynamoAgentRegistry}. */
export interface DynamoAgentRegistryOptions {
  /** The table (the task store's, created by `migrateDynamo`). */
  readonly table: string;
  readonly logger?: Logger;
  /** Default `pollMs` of {@link DynamoAgentRegistry.watch}: 5 s. */
  readonly pollMs?: number;
}

/** What {@link DynamoAgentRegistry.put} writes: a row without its size and version (`enabled` default true, `settings` and `card` default `{}`). */
export interface AgentRowInput {
  readonly id: string;
  readonly handler: string;
  readonly settings?: Record<string, unknown>;
  readonly card?: Record<string, unknown>;
  readonly enabled?: boolean;
}

/** Default interval of {@link DynamoAgentRegistry.watch}. */
export const DEFAULT_AGENT_REGISTRY_POLL_MS = 5000;

/**
 * The agent registry in the DynamoDB table of the task store: the same rows as PostgreSQL's
 * `a2a_agents`, one item per agent in the partition `["a2a-agents"]` (sort key
 * `agent#<id>`; attributes `handler`, `settings` and `card` as JSON text, `enabled`,
 * `updated_at` ISO 8601), which no task key can take (see the layout in `schema.ts`).
 * `migrateDynamo` creates the table; the registry needs nothing more of it.
 *
 * DynamoDB has no notifications here (Streams are not used): {@link watch} polls, calling
 * `onChange` every `pollMs`, and each call re-reads the partition with one paginated,
 * strongly consistent Query.
 */
export class DynamoAgentRegistry implements AgentRegistrySource {
  private readonly table: string;
  private readonly logger: Logger;
  private readonly pollMs: number;
  /** Versions (`id@updated_at`) of the unreadable items warned about, so each is reported once. */
  private readonly unreadable = new Set<string>();

  constructor(
    private readonly client: DynamoDBClient,
    options: DynamoAgentRegistryOptions,
  ) {
    this.table = options.table;
    this.logger = options.logger ?? silentLogger;
    this.pollMs = options.pollMs ?? DEFAULT_AGENT_REGISTRY_POLL_MS;
  }

  /**
   * Every row, enabled or not, by id (the Query returns them in sort key order, `agent#<id>`).
   * A card longer than `maxCardBytes` (UTF-8 bytes of its JSON text) is not parsed: the row
   * comes back with `card: {}` and its `cardBytes`. Unlike PostgreSQL, DynamoDB cannot leave
   * the attribute on the server, so the oversize card is still transferred on every read; the
   * bound only spares parsing and serving it. Unset: every card is parsed.
   */
  async list(options: AgentRegistryListOptions = {}): Promise<AgentRow[]> {
    const rows: AgentRow[] = [];
    let start: Record<string, AttributeValue> | undefined;
    do {
      const out = await guardedDynamo(() =>
        this.client.send(
          new QueryCommand({
            TableName: this.table,
            KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :agent)',
            ExpressionAttributeNames: { '#pk': ATTR.pk, '#sk': ATTR.sk },
            ExpressionAttributeValues: { ':pk': { S: AGENT_PK }, ':agent': { S: AGENT_SK_PREFIX } },
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        ),
      );
      for (const item of out.Items ?? []) {
        const row = this.row(item, options.maxCardBytes);
        if (row) rows.push(row);
      }
      start = out.LastEvaluatedKey;
    } while (start);
    return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  }

  /**
   * Writes (creates or replaces) a row, with `updated_at` now. Returns the row as stored. Two
   * writes of one id within the same millisecond carry the same version: the second may then go
   * unnoticed by a running executor until the row changes again.
   */
  async put(row: AgentRowInput): Promise<AgentRow> {
    const card = JSON.stringify(row.card ?? {});
    const stored: AgentRow = {
      id: row.id,
      handler: row.handler,
      settings: row.settings ?? {},
      card: row.card ?? {},
      cardBytes: Buffer.byteLength(card),
      enabled: row.enabled ?? true,
      updatedAt: new Date().toISOString(),
    };
    await guardedDynamo(() =>
      this.client.send(
        new PutItemCommand({
          TableName: this.table,
          Item: {
            ...agentKey(row.id),
            id: { S: stored.id },
            handler: { S: stored.handler },
            settings: { S: JSON.stringify(stored.settings) },
            card: { S: card },
            enabled: { BOOL: stored.enabled },
            updated_at: { S: stored.updatedAt },
          },
        }),
      ),
    );
    return stored;
  }

  /** Deletes the row of `id` (nothing when there is none). */
  async delete(id: string): Promise<void> {
    await guardedDynamo(() => this.client.send(new DeleteItemCommand({ TableName: this.table, Key: agentKey(id) })));
  }

  /**
   * Calls `onChange('poll')` every `pollMs` (default the constructor's, 5 s; at least 1 ms)
   * until closed: a change is seen within one interval plus one read. Each call is one Query
   * of the partition by whoever re-reads, so the interval sets the read cost: N instances
   * polling every P ms make N / P Queries per ms.
   */
  watch(onChange: (why: string) => void, options: { readonly pollMs?: number } = {}): AgentRegistryWatch {
    const pollMs = Math.max(1, options.pollMs ?? this.pollMs);
    const timer = setInterval(() => onChange('poll'), pollMs);
    timer.unref();
    return { close: async () => clearInterval(timer) };
  }

  /** An item as a row; undefined (with a warning, once per version) for an item whose JSON text is not an object. */
  private row(item: Record<string, AttributeValue>, maxCardBytes: number | undefined): AgentRow | undefined {
    const id = item.sk?.S?.slice(AGENT_SK_PREFIX.length) ?? '';
    const cardText = item.card?.S ?? '{}';
    const cardBytes = Buffer.byteLength(cardText);
    try {
      return {
        id,
        handler: item.handler?.S ?? '',
        settings: objectOf(item.settings?.S),
        card: maxCardBytes !== undefined && cardBytes > maxCardBytes ? {} : objectOf(cardText),
        cardBytes,
        enabled: item.enabled?.BOOL ?? false,
        updatedAt: item.updated_at?.S ?? '',
      };
    } catch (error) {
      const version = `${id}@${item.updated_at?.S ?? ''}`;
      if (this.unreadable.has(version)) return undefined;
      this.unreadable.add(version);
      this.logger.warn({ agentId: id, err: (error as Error).message }, 'Agent registry (DynamoDB): item skipped, its settings or card is not a JSON object');
      return undefined;
    }
  }
}

function agentKey(id: string): Record<string, AttributeValue> {
  return { [ATTR.pk]: { S: AGENT_PK }, [ATTR.sk]: { S: `${AGENT_SK_PREFIX}${id}` } };
}

/** Parses JSON text that must hold an object (unset: `{}`). */
function objectOf(text: string | undefined): Record<string, unknown> {
  if (text === undefined) return {};
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`not a JSON object: ${text.slice(0, 40)}`);
  return value as Record<string, unknown>;
}
