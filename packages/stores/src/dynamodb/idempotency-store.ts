import type { IdempotencyStore, SendClaim, SendKey, SendOutcome } from '@a2a-polyglot/core';
import { DeleteItemCommand, GetItemCommand, PutItemCommand, UpdateItemCommand, type AttributeValue, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { decodeSendOutcome, encodeSendOutcome } from '../codec.js';
import { guardedDynamo, isConditionFailed } from './errors.js';
import { ATTR, SEND_SK, sendPk } from './schema.js';

/** Attributes of a send item besides its key. */
const SEND = { fingerprint: 'body_hash', taskId: 'task_id', reply: 'reply', expiresMs: 'send_expires_ms' } as const;

/**
 * The sends seen within the idempotency window, as items of the tasks' DynamoDB table
 * (`pk` = `["a2a-send",<principal>,<tenant>,<messageId>]`, `sk` = `send`, never a task's key):
 * a claim is a conditional PutItem that succeeds only on an absent or expired item, so exactly
 * one instance owns a send. Expiry is checked on `send_expires_ms` (epoch ms); the table's TTL
 * attribute `expires_at` (epoch seconds) lets DynamoDB delete the item afterwards, so no
 * migration step is needed.
 */
export class DynamoIdempotencyStore implements IdempotencyStore {
  private readonly table: string;

  constructor(
    private readonly client: DynamoDBClient,
    options: { readonly table: string },
  ) {
    this.table = options.table;
  }

  async claim(key: SendKey, fingerprint: string, now: number, expiresAt: number): Promise<SendClaim> {
    for (;;) {
      try {
        await this.client.send(
          new PutItemCommand({
            TableName: this.table,
            Item: { ...keyOf(key), [SEND.fingerprint]: { S: fingerprint }, ...expiry(expiresAt) },
            ConditionExpression: 'attribute_not_exists(#pk) OR #exp <= :now',
            ExpressionAttributeNames: { '#pk': ATTR.pk, '#exp': SEND.expiresMs },
            ExpressionAttributeValues: { ':now': { N: String(now) } },
          }),
        );
        return { kind: 'new' };
      } catch (error) {
        if (!isConditionFailed(error)) return guardedDynamo(() => Promise.reject(error));
      }
      const out = await guardedDynamo(() => this.client.send(new GetItemCommand({ TableName: this.table, Key: keyOf(key), ConsistentRead: true })));
      const item = out.Item;
      // Gone in between (TTL): claim again.
      if (item)
        return { kind: 'existing', fingerprint: item[SEND.fingerprint]?.S ?? '', outcome: decodeSendOutcome(item[SEND.taskId]?.S, item[SEND.reply]?.S) };
    }
  }

  async record(key: SendKey, fingerprint: string, outcome: SendOutcome, expiresAt: number): Promise<void> {
    const { taskId, reply } = encodeSendOutcome(outcome);
    const [field, value] = taskId !== null ? [SEND.taskId, taskId] : [SEND.reply, reply ?? ''];
    const expiresMs = String(expiresAt);
    const ttl = String(Math.ceil(expiresAt / 1000));
    await this.conditional(
      new UpdateItemCommand({
        TableName: this.table,
        Key: keyOf(key),
        UpdateExpression: 'SET #out = :out, #exp = :exp, #ttl = :ttl',
        ConditionExpression: '#hash = :hash',
        ExpressionAttributeNames: { '#out': field, '#exp': SEND.expiresMs, '#ttl': ATTR.ttl, '#hash': SEND.fingerprint },
        ExpressionAttributeValues: { ':out': { S: value }, ':exp': { N: expiresMs }, ':ttl': { N: ttl }, ':hash': { S: fingerprint } },
      }),
    );
  }

  async release(key: SendKey, fingerprint: string): Promise<void> {
    await this.conditional(
      new DeleteItemCommand({
        TableName: this.table,
        Key: keyOf(key),
        ConditionExpression: '#hash = :hash AND attribute_not_exists(#task) AND attribute_not_exists(#reply)',
        ExpressionAttributeNames: { '#hash': SEND.fingerprint, '#task': SEND.taskId, '#reply': SEND.reply },
        ExpressionAttributeValues: { ':hash': { S: fingerprint } },
      }),
    );
  }

  /** A write whose failed condition means someone else took the key over: nothing to do. */
  private async conditional(command: UpdateItemCommand | DeleteItemCommand): Promise<void> {
    try {
      await this.client.send(command as UpdateItemCommand);
    } catch (error) {
      if (!isConditionFailed(error)) await guardedDynamo(() => Promise.reject(error));
    }
  }
}

function keyOf(key: SendKey): Record<string, AttributeValue> {
  return { [ATTR.pk]: { S: sendPk(key.principal, key.tenant, key.messageId) }, [ATTR.sk]: { S: SEND_SK } };
}

function expiry(expiresAt: number): Record<string, AttributeValue> {
  return { [SEND.expiresMs]: { N: String(expiresAt) }, [ATTR.ttl]: { N: String(Math.ceil(expiresAt / 1000)) } };
}
