import {
  isTerminal,
  versionConflict,
  type AbandonedQuery,
  type StoredTask,
  type TaskLease,
  type TaskPage,
  type TaskQuery,
  type TaskRef,
  type TaskStore,
  type TenantPartition,
} from '@a2a-polyglot/core';
import {
  DeleteItemCommand,
  GetItemCommand,
  PutItemCommand,
  QueryCommand,
  UpdateItemCommand,
  type AttributeValue,
  type DynamoDBClient,
  type QueryCommandInput,
} from '@aws-sdk/client-dynamodb';
import { dynamoError, guardedDynamo, isConditionFailed } from './errors.js';
import { pageRows, taskPage } from '../task-page.js';
import { listPlan } from './list-plan.js';
import { ATTR, INDEX, LEASED, storedFromItem, TASK_SK, taskItem, taskPk, taskPkPrefix } from './schema.js';

/** Options of {@link DynamoTaskStore}. */
export interface DynamoTaskStoreOptions {
  readonly table: string;
  /**
   * How long a finished (terminal) task is kept: its item gets the TTL attribute
   * `expires_at` = save time + this, and DynamoDB deletes it some time after (usually within
   * a few days; until then it is still read). Unset or 0: finished tasks are kept until
   * deleted, as in the SQL stores.
   */
  readonly retentionMs?: number;
}

/** The lease-free condition of a save that claims a lease (`:lo` the claimant, `:now` epoch ms). */
const LEASE_FREE = `(attribute_not_exists(#lo) OR #lo = :lo OR #le < :now)`;

/**
 * Tasks in DynamoDB, shared by every instance, with the same contract as the SQL stores:
 * each save is one conditional PutItem whose condition carries the optimistic-concurrency
 * check (version) and the lease check, so two writers never silently overwrite each other and
 * a write is whole or absent; the loser gets core's `versionConflict`. Every key is scoped by
 * the tenant. ListTasks reads a GSI (see `schema.ts`), pages and counts like the other stores.
 *
 * Differences that follow from DynamoDB: GSIs are eventually consistent, so ListTasks and the
 * sweep of abandoned tasks may miss a save from the last moment (typically under a second;
 * GetTask and every write are strongly consistent); lease times use each instance's clock,
 * so instances need synchronised clocks (NTP); an item is at most 400 KB, so a task with more
 * history and artifacts than that cannot be saved (the save fails with Internal).
 */
export class DynamoTaskStore implements TaskStore {
  private readonly table: string;
  private readonly retentionMs: number;

  constructor(
    private readonly client: DynamoDBClient,
    options: DynamoTaskStoreOptions,
  ) {
    this.table = options.table;
    this.retentionMs = options.retentionMs ?? 0;
  }

  async get(tenant: string, taskId: string): Promise<StoredTask | undefined> {
    const out = await guardedDynamo(() => this.client.send(new GetItemCommand({ TableName: this.table, Key: key(tenant, taskId), ConsistentRead: true })));
    return out.Item && storedFromItem(out.Item);
  }

  async save(stored: StoredTask, expectedVersion?: number, lease?: TaskLease): Promise<void> {
    const now = Date.now();
    const state = stored.task.status?.state ?? 0;
    const ttl = this.retentionMs > 0 && isTerminal(state) ? Math.ceil((now + this.retentionMs) / 1000) : undefined;
    const item = taskItem(stored, lease && { owner: lease.owner, expiresAt: now + lease.ttlMs }, ttl);
    const names: Record<string, string> = {};
    const values: Record<string, AttributeValue> = {};
    const conditions: string[] = [];
    if (expectedVersion === 0) {
      conditions.push('attribute_not_exists(#pk)');
      names['#pk'] = ATTR.pk;
    } else if (expectedVersion !== undefined) {
      conditions.push('#v = :expected');
      names['#v'] = 'version';
      values[':expected'] = { N: String(expectedVersion) };
    }
    if (lease && expectedVersion !== 0) {
      conditions.push(LEASE_FREE);
      Object.assign(names, { '#lo': ATTR.leaseOwner, '#le': ATTR.leaseExpiresAt });
      Object.assign(values, { ':lo': { S: lease.owner }, ':now': { N: String(now) } });
    }
    const input = {
      TableName: this.table,
      Item: item,
      ...(conditions.length > 0 && { ConditionExpression: conditions.join(' AND '), ExpressionAttributeNames: names }),
      ...(Object.keys(values).length > 0 && { ExpressionAttributeValues: values }),
    };
    try {
      await this.client.send(new PutItemCommand(input));
    } catch (error) {
      if (isConditionFailed(error)) throw versionConflict(stored.task.id);
      throw dynamoError(error);
    }
  }

  async list(query: TaskQuery): Promise<TaskPage> {
    const plan = listPlan(query);
    const base: QueryCommandInput = {
      TableName: this.table,
      IndexName: plan.index,
      KeyConditionExpression: plan.keyCondition,
      FilterExpression: plan.filter,
      ExpressionAttributeNames: plan.names,
      ExpressionAttributeValues: plan.values,
    };
    const { pageSize, readLimit } = pageRows(query);
    const [totalSize, items] = await Promise.all([
      this.count(base),
      plan.page
        ? this.collect(
            {
              ...base,
              KeyConditionExpression: plan.page.keyCondition,
              ExpressionAttributeValues: plan.page.values,
              ScanIndexForward: false,
              Limit: readLimit,
            },
            readLimit,
            plan.exclude,
          )
        : Promise.resolve([]),
    ]);
    return taskPage(items, storedFromItem, pageSize, totalSize);
  }

  async delete(tenant: string, taskId: string): Promise<void> {
    await guardedDynamo(() => this.client.send(new DeleteItemCommand({ TableName: this.table, Key: key(tenant, taskId) })));
  }

  async renewLeases(owner: string, tasks: readonly TaskRef[], ttlMs: number): Promise<TaskRef[]> {
    const expires = String(Date.now() + ttlMs);
    const renewed = await Promise.all(
      tasks.map(async (ref) => {
        try {
          await this.client.send(
            new UpdateItemCommand({
              TableName: this.table,
              Key: key(ref.tenant, ref.taskId),
              UpdateExpression: 'SET #le = :expires',
              ConditionExpression: '#lo = :owner',
              ExpressionAttributeNames: { '#le': ATTR.leaseExpiresAt, '#lo': ATTR.leaseOwner },
              ExpressionAttributeValues: { ':expires': { N: expires }, ':owner': { S: owner } },
            }),
          );
          return true;
        } catch (error) {
          if (isConditionFailed(error)) return false;
          throw dynamoError(error);
        }
      }),
    );
    return tasks.filter((_, i) => !renewed[i]);
  }

  /**
   * Reads the lease index (expired leases, plus at startup the ones `owner` holds; only the
   * `tenants` partition, filtered on the key by DynamoDB before the limit), then re-reads each
   * task consistently and keeps those whose lease is still expired or owned: the index is
   * eventually consistent and projects keys only.
   */
  async abandoned(query: AbandonedQuery): Promise<StoredTask[]> {
    const now = Date.now();
    const partition = partitionFilter(query.tenants);
    const filtered = (condition: string | undefined) => {
      const all = [condition, partition?.expression].filter((c) => c !== undefined);
      return all.length > 0 ? { FilterExpression: all.join(' AND ') } : {};
    };
    const names = { '#p': ATTR.leasePartition, '#le': ATTR.leaseExpiresAt, '#lo': ATTR.leaseOwner, '#pk': ATTR.pk };
    const base: QueryCommandInput = { TableName: this.table, IndexName: INDEX.lease, ExpressionAttributeNames: names };
    const expired = this.collect(
      {
        ...base,
        KeyConditionExpression: '#p = :p AND #le < :now',
        ...filtered(undefined),
        ExpressionAttributeValues: { ':p': { S: LEASED }, ':now': { N: String(now) }, ...partition?.values },
      },
      query.limit,
    );
    const own =
      query.owner === undefined
        ? Promise.resolve([])
        : this.collect(
            {
              ...base,
              KeyConditionExpression: '#p = :p',
              ...filtered('#lo = :owner'),
              ExpressionAttributeValues: { ':p': { S: LEASED }, ':owner': { S: query.owner }, ...partition?.values },
            },
            query.limit,
          );
    const found = [...(await expired), ...(await own)].sort((a, b) => Number(a[ATTR.leaseExpiresAt]?.N) - Number(b[ATTR.leaseExpiresAt]?.N));
    const keys = [...new Map(found.map((i) => [i[ATTR.pk]?.S ?? '', i])).keys()];
    const out: StoredTask[] = [];
    for (const pk of keys) {
      if (out.length >= query.limit) break;
      const read = await guardedDynamo(() =>
        this.client.send(new GetItemCommand({ TableName: this.table, Key: { [ATTR.pk]: { S: pk }, [ATTR.sk]: { S: TASK_SK } }, ConsistentRead: true })),
      );
      const item = read.Item;
      const leaseOwner = item?.[ATTR.leaseOwner]?.S;
      if (!item || leaseOwner === undefined) continue;
      if (Number(item[ATTR.leaseExpiresAt]?.N) < now || leaseOwner === query.owner) out.push(storedFromItem(item));
    }
    return out;
  }

  /** Every item count of a Query (all pages). */
  private async count(input: QueryCommandInput): Promise<number> {
    let total = 0;
    let start: Record<string, AttributeValue> | undefined;
    do {
      const out = await guardedDynamo(() => this.client.send(new QueryCommand({ ...usedNamesOnly(input), Select: 'COUNT', ExclusiveStartKey: start })));
      total += out.Count ?? 0;
      start = out.LastEvaluatedKey;
    } while (start);
    return total;
  }

  /** Up to `limit` items of a Query, following pages (filters apply after DynamoDB's Limit). */
  private async collect(input: QueryCommandInput, limit: number, exclude?: string): Promise<Array<Record<string, AttributeValue>>> {
    const items: Array<Record<string, AttributeValue>> = [];
    let start: Record<string, AttributeValue> | undefined;
    do {
      const out = await guardedDynamo(() => this.client.send(new QueryCommand({ ...usedNamesOnly(input), ExclusiveStartKey: start })));
      for (const item of out.Items ?? []) if (exclude === undefined || item[ATTR.listSort]?.S !== exclude) items.push(item);
      start = out.LastEvaluatedKey;
    } while (start && items.length < limit);
    return items.slice(0, limit);
  }
}

/**
 * Core's `inTenantPartition` as a filter on the task key (`#pk`), which the lease index
 * projects: the prefix tests of the tenant are prefix tests of the key (see `taskPkPrefix`).
 */
function partitionFilter(partition: TenantPartition | undefined): { expression: string; values: Record<string, AttributeValue> } | undefined {
  const conditions: string[] = [];
  const values: Record<string, AttributeValue> = {};
  if (partition?.prefix) {
    conditions.push('begins_with(#pk, :tp)');
    values[':tp'] = { S: taskPkPrefix(partition.prefix) };
  }
  if (partition?.exceptPrefix) {
    values[':te'] = { S: taskPkPrefix(partition.exceptPrefix) };
    if (partition.keepPrefix) {
      conditions.push('(NOT begins_with(#pk, :te) OR begins_with(#pk, :tk))');
      values[':tk'] = { S: taskPkPrefix(partition.keepPrefix) };
    } else {
      conditions.push('NOT begins_with(#pk, :te)');
    }
  }
  return conditions.length > 0 ? { expression: conditions.join(' AND '), values } : undefined;
}

function key(tenant: string, taskId: string): Record<string, AttributeValue> {
  return { [ATTR.pk]: { S: taskPk(tenant, taskId) }, [ATTR.sk]: { S: TASK_SK } };
}

/** DynamoDB refuses attribute names an expression does not use: keep only the used ones. */
function usedNamesOnly(input: QueryCommandInput): QueryCommandInput {
  const text = `${input.KeyConditionExpression ?? ''} ${input.FilterExpression ?? ''}`;
  const names = Object.entries(input.ExpressionAttributeNames ?? {}).filter(([name]) => new RegExp(`${name}\\b`).test(text));
  return { ...input, ExpressionAttributeNames: Object.fromEntries(names) };
}
