import type { PushConfigStore, StoredPushConfig } from '@a2a-polyglot/core';
import {
  BatchWriteItemCommand,
  DeleteItemCommand,
  GetItemCommand,
  QueryCommand,
  ScanCommand,
  UpdateItemCommand,
  type AttributeValue,
  type DynamoDBClient,
  type WriteRequest,
} from '@aws-sdk/client-dynamodb';
import { decodePushConfig, encodePushConfig, resealedPushConfig } from '../codec.js';
import { PushSecrets, type PushConfigStoreOptions } from '../push-secrets.js';
import { dynamoError, guardedDynamo, isConditionFailed } from './errors.js';
import { ATTR, PUSH_SK_PREFIX, taskPk } from './schema.js';

/** BatchWriteItem takes at most this many requests. */
const BATCH = 25;

/**
 * Webhook registrations in the tasks' DynamoDB table: one item per config, in the task's
 * partition (`sk` = `push#<config id>`), so listing a task's configs is one strongly
 * consistent Query. Replacing a config keeps its place in the registration order (the
 * `position` written the first time, a time-based number), as the in-memory store does. With
 * `secrets` holding a key, token and credentials are encrypted at rest.
 */
export class DynamoPushConfigStore implements PushConfigStore {
  private readonly table: string;
  private readonly secrets: PushSecrets;
  private lastPosition = 0;

  constructor(
    private readonly client: DynamoDBClient,
    options: { readonly table: string } & PushConfigStoreOptions,
  ) {
    this.table = options.table;
    this.secrets = options.secrets ?? PushSecrets.NONE;
  }

  async put(tenant: string, config: StoredPushConfig): Promise<void> {
    // Strictly increasing within this process; across instances, registration time orders.
    this.lastPosition = Math.max(this.lastPosition + 1, Date.now() * 1000);
    await guardedDynamo(() =>
      this.client.send(
        new UpdateItemCommand({
          TableName: this.table,
          Key: pushKey(tenant, config.taskId, config.id),
          UpdateExpression: 'SET #c = :c, #pos = if_not_exists(#pos, :pos)',
          ExpressionAttributeNames: { '#c': 'config', '#pos': 'position' },
          ExpressionAttributeValues: { ':c': { S: encodePushConfig(tenant, config, this.secrets) }, ':pos': { N: String(this.lastPosition) } },
        }),
      ),
    );
  }

  async get(tenant: string, taskId: string, id: string): Promise<StoredPushConfig | undefined> {
    const out = await guardedDynamo(() =>
      this.client.send(new GetItemCommand({ TableName: this.table, Key: pushKey(tenant, taskId, id), ConsistentRead: true })),
    );
    return out.Item?.config?.S === undefined ? undefined : decodePushConfig(tenant, out.Item.config.S, this.secrets);
  }

  async list(tenant: string, taskId: string): Promise<StoredPushConfig[]> {
    const items = await this.items(tenant, taskId);
    items.sort((a, b) => Number(a.position?.N) - Number(b.position?.N));
    return items.map((item) => decodePushConfig(tenant, item.config?.S ?? '{}', this.secrets));
  }

  /**
   * The migration of items written before a key was set: scans the table for config items and
   * seals every plaintext secret. Each item is rewritten only if it is still what was read (an
   * instance replacing it meanwhile wins). Returns how many it rewrote (0 without a key).
   * Idempotent.
   */
  async sealPlaintextSecrets(): Promise<number> {
    if (!this.secrets.enabled) return 0;
    let sealed = 0;
    let start: Record<string, AttributeValue> | undefined;
    do {
      const out = await guardedDynamo(() =>
        this.client.send(
          new ScanCommand({
            TableName: this.table,
            FilterExpression: 'begins_with(#sk, :push)',
            ExpressionAttributeNames: { '#sk': ATTR.sk },
            ExpressionAttributeValues: { ':push': { S: PUSH_SK_PREFIX } },
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        ),
      );
      for (const item of out.Items ?? []) {
        const text = item.config?.S;
        if (text === undefined) continue;
        const resealed = resealedPushConfig(tenantOfPk(item[ATTR.pk]?.S), text, this.secrets);
        if (resealed === undefined) continue;
        try {
          await this.client.send(
            new UpdateItemCommand({
              TableName: this.table,
              Key: storedKey(item),
              UpdateExpression: 'SET #c = :c',
              ConditionExpression: '#c = :old',
              ExpressionAttributeNames: { '#c': 'config' },
              ExpressionAttributeValues: { ':c': { S: resealed }, ':old': { S: text } },
            }),
          );
          sealed++;
        } catch (error) {
          if (!isConditionFailed(error)) throw dynamoError(error);
        }
      }
      start = out.LastEvaluatedKey;
    } while (start);
    return sealed;
  }

  async delete(tenant: string, taskId: string, id: string): Promise<void> {
    await guardedDynamo(() => this.client.send(new DeleteItemCommand({ TableName: this.table, Key: pushKey(tenant, taskId, id) })));
  }

  async deleteAll(tenant: string, taskId: string): Promise<void> {
    const keys = (await this.items(tenant, taskId)).map(storedKey);
    for (let i = 0; i < keys.length; i += BATCH) {
      let requests: WriteRequest[] = keys.slice(i, i + BATCH).map((Key) => ({ DeleteRequest: { Key } }));
      // BatchWriteItem may leave some requests unprocessed under throttling: send them again.
      while (requests.length > 0) {
        const out = await guardedDynamo(() => this.client.send(new BatchWriteItemCommand({ RequestItems: { [this.table]: requests } })));
        requests = out.UnprocessedItems?.[this.table] ?? [];
      }
    }
  }

  /** Every config item of a task (all Query pages). */
  private async items(tenant: string, taskId: string): Promise<Array<Record<string, AttributeValue>>> {
    const items: Array<Record<string, AttributeValue>> = [];
    let start: Record<string, AttributeValue> | undefined;
    do {
      const out = await guardedDynamo(() =>
        this.client.send(
          new QueryCommand({
            TableName: this.table,
            KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :push)',
            ExpressionAttributeNames: { '#pk': ATTR.pk, '#sk': ATTR.sk },
            ExpressionAttributeValues: { ':pk': { S: taskPk(tenant, taskId) }, ':push': { S: PUSH_SK_PREFIX } },
            ConsistentRead: true,
            ExclusiveStartKey: start,
          }),
        ),
      );
      items.push(...(out.Items ?? []));
      start = out.LastEvaluatedKey;
    } while (start);
    return items;
  }
}

function pushKey(tenant: string, taskId: string, id: string): Record<string, AttributeValue> {
  return { [ATTR.pk]: { S: taskPk(tenant, taskId) }, [ATTR.sk]: { S: `${PUSH_SK_PREFIX}${id}` } };
}

/** The tenant of a partition key ({@link taskPk}: `["<tenant>","<taskId>"]`). */
function tenantOfPk(pk: string | undefined): string {
  const parsed: unknown = JSON.parse(pk ?? '[]');
  return Array.isArray(parsed) && typeof parsed[0] === 'string' ? parsed[0] : '';
}

/** The primary key of a stored item, as DeleteRequest wants it (a queried item always has both parts). */
function storedKey(item: Record<string, AttributeValue>): Record<string, AttributeValue> {
  const pk = item[ATTR.pk];
  const sk = item[ATTR.sk];
  if (!pk || !sk) throw new Error('DynamoDB push config item without its key attributes (pk, sk)');
  return { [ATTR.pk]: pk, [ATTR.sk]: sk };
}
