import type { StoredTask } from '@a2a-polyglot/core';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { decodeTask } from '../codec.js';
import { taskColumns } from '../task-columns.js';

/**
 * The DynamoDB table layout, in one place so the store, the queries and the migration agree
 * on it. One table holds tasks, push configs and the schema version:
 *
 * - primary key `pk` (the task: `["<tenant>","<task id>"]`) + `sk` (`task`, `push#<config id>`
 *   or `schema`), so a task and its webhooks share a partition;
 * - ListTasks reads the sparse GSIs `by_tenant`, `by_context` and `by_state`, whose partition
 *   is the tenant (plus context id or state) and whose sort key `lk` is
 *   `<status timestamp>\u0000<task id>`: DynamoDB orders it by UTF-8 bytes, which for the
 *   core's RFC 3339 timestamps and ASCII ids is the (timestamp desc, id desc) order of the
 *   other stores once read backwards. The NUL separator sorts below every character, so a
 *   shorter timestamp sorts first exactly as in a string comparison;
 * - the sparse GSI `by_lease` holds only leased tasks (`lease_pk`), by lease expiry, for the
 *   sweep of abandoned tasks;
 * - `expires_at` (epoch seconds) is the TTL attribute, set on finished tasks only;
 * - the executor's agent registry keeps one item per agent in the partition `["a2a-agents"]`
 *   (sk `agent#<agent id>`): a one-member array, so never a task's `["<tenant>","<task id>"]`,
 *   and read with a Query of that partition, never a Scan.
 *
 * JSON arrays build every composite key: unambiguous whatever the tenant or id holds, and
 * never empty (DynamoDB refuses empty key strings, and the default tenant is '').
 */
export const ATTR = {
  pk: 'pk',
  sk: 'sk',
  tenantKey: 'lt',
  contextKey: 'lc',
  stateKey: 'ls',
  listSort: 'lk',
  leasePartition: 'lease_pk',
  leaseOwner: 'lease_owner',
  leaseExpiresAt: 'lease_expires_at',
  ttl: 'expires_at',
} as const;

/** Index names; the migration creates them and refuses a table without them. */
export const INDEX = { tenant: 'by_tenant', context: 'by_context', state: 'by_state', lease: 'by_lease' } as const;

/** The sort key value of a task item and of the schema item. */
export const TASK_SK = 'task';
export const SCHEMA_KEY = { pk: '["a2a-schema"]', sk: 'schema' } as const;
/** The one partition of the lease index (only leased tasks carry it). */
export const LEASED = 'leased';
/** The partition of the agent registry items (see {@link AGENT_SK_PREFIX}). */
export const AGENT_PK = '["a2a-agents"]';
/** Agent registry items: `agent#<agent id>`. */
export const AGENT_SK_PREFIX = 'agent#';
/** Push config items: `push#<config id>`. */
export const PUSH_SK_PREFIX = 'push#';

/** The sort key of a send item (idempotent sends); its partition is {@link sendPk}. */
export const SEND_SK = 'send';

/** The partition of a send item: four members, so never a task's two-member key. */
export function sendPk(principal: string, tenant: string, messageId: string): string {
  return JSON.stringify(['a2a-send', principal, tenant, messageId]);
}

/** The partition key of a task and its push configs. */
export function taskPk(tenant: string, taskId: string): string {
  return JSON.stringify([tenant, taskId]);
}

/**
 * The start of the partition key of every task whose tenant starts with `tenantPrefix`: JSON
 * escapes each character on its own, so the key of such a tenant starts with this (for a
 * prefix that does not end halfway through a surrogate pair), and a `begins_with` on the key
 * tests the tenant's prefix in an index that projects only keys.
 */
export function taskPkPrefix(tenantPrefix: string): string {
  return `[${JSON.stringify(tenantPrefix).slice(0, -1)}`;
}

/** The partition of `by_tenant`. */
export function tenantKey(tenant: string): string {
  return JSON.stringify([tenant]);
}

/** The partition of `by_context`. */
export function contextKey(tenant: string, contextId: string): string {
  return JSON.stringify([tenant, contextId]);
}

/** The partition of `by_state`. */
export function stateKey(tenant: string, state: number): string {
  return JSON.stringify([tenant, state]);
}

/** The ListTasks sort key: see the layout above. */
export function listSortKey(timestamp: string, taskId: string): string {
  return `${timestamp}\u0000${taskId}`;
}

/** Lease fields of a task item. */
export interface ItemLease {
  readonly owner: string;
  /** Epoch ms, on the writer's clock. */
  readonly expiresAt: number;
}

/** A task as a whole item (PutItem replaces every attribute, so a save is always whole). */
export function taskItem(stored: StoredTask, lease: ItemLease | undefined, ttlEpochSeconds: number | undefined): Record<string, AttributeValue> {
  const c = taskColumns(stored);
  const item: Record<string, AttributeValue> = {
    [ATTR.pk]: { S: taskPk(c.tenant, c.id) },
    [ATTR.sk]: { S: TASK_SK },
    tenant: { S: c.tenant },
    id: { S: c.id },
    context_id: { S: c.contextId },
    state: { N: String(c.state) },
    status_ts: { S: c.statusTs },
    version: { N: String(c.version) },
    task: { S: c.task },
    updated_at: { N: String(Date.now()) },
    [ATTR.tenantKey]: { S: tenantKey(c.tenant) },
    [ATTR.contextKey]: { S: contextKey(c.tenant, c.contextId) },
    [ATTR.stateKey]: { S: stateKey(c.tenant, c.state) },
    [ATTR.listSort]: { S: listSortKey(c.statusTs, c.id) },
  };
  if (stored.owner !== undefined) item.owner = { S: stored.owner };
  if (lease) {
    item[ATTR.leasePartition] = { S: LEASED };
    item[ATTR.leaseOwner] = { S: lease.owner };
    item[ATTR.leaseExpiresAt] = { N: String(lease.expiresAt) };
  }
  if (ttlEpochSeconds !== undefined) item[ATTR.ttl] = { N: String(ttlEpochSeconds) };
  return item;
}

/** Reverses {@link taskItem}. */
export function storedFromItem(item: Record<string, AttributeValue>): StoredTask {
  return {
    tenant: item.tenant?.S ?? '',
    owner: item.owner?.S,
    task: decodeTask(item.task?.S ?? '{}'),
    version: Number(item.version?.N ?? 0),
  };
}
