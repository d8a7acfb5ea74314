import type { SendOutcome, StoredPushConfig } from '@a2a-polyglot/core';
import { Message, StreamResponse, Task, TaskPushNotificationConfig } from '@a2a-polyglot/model';
import { PushSecrets } from './push-secrets.js';

/**
 * How the stores write A2A objects: ProtoJSON text. It round-trips every field exactly
 * (timestamps stay the strings the core wrote, which ListTasks ordering depends on) and keeps
 * rows readable with plain SQL (`task->'status'`) and streams readable with `XRANGE`.
 */

/** A task as ProtoJSON text. */
export function encodeTask(task: Task): string {
  return JSON.stringify(Task.toJSON(task));
}

/** Reverses {@link encodeTask}; accepts the text or an already parsed value (PostgreSQL jsonb). */
export function decodeTask(stored: unknown): Task {
  return Task.fromJSON(typeof stored === 'string' ? JSON.parse(stored) : stored);
}

/**
 * A push notification config as ProtoJSON text, its secrets sealed when `secrets` has a key,
 * plus the one store-side member: `protocolVersion`, the generation it was registered in
 * (written only for 0.3, so a 1.0 row reads exactly as rows written before generations did).
 * The member is no field of the message: `fromJSON` skips it, no binding ever sees it.
 */
export function encodePushConfig(tenant: string, config: StoredPushConfig, secrets: PushSecrets = PushSecrets.NONE): string {
  const json = TaskPushNotificationConfig.toJSON(secrets.seal(tenant, config)) as Record<string, unknown>;
  if (config.protocolVersion === '0.3') json.protocolVersion = '0.3';
  return JSON.stringify(json);
}

/**
 * Reverses {@link encodePushConfig}; accepts the text or an already parsed value (PostgreSQL
 * jsonb). A row without `protocolVersion` was registered in 1.0 (and reads without one).
 */
export function decodePushConfig(tenant: string, stored: unknown, secrets: PushSecrets = PushSecrets.NONE): StoredPushConfig {
  const json: unknown = typeof stored === 'string' ? JSON.parse(stored) : stored;
  const config: StoredPushConfig = secrets.open(tenant, TaskPushNotificationConfig.fromJSON(json));
  return (json as { protocolVersion?: unknown } | null)?.protocolVersion === '0.3' ? { ...config, protocolVersion: '0.3' } : config;
}

/**
 * The row rewritten with its secrets sealed, or undefined when it holds no plaintext secret
 * (or `secrets` has no key): the one step of every store's `sealPlaintextSecrets` migration.
 */
export function resealedPushConfig(tenant: string, stored: unknown, secrets: PushSecrets): string | undefined {
  const json: unknown = typeof stored === 'string' ? JSON.parse(stored) : stored;
  if (!secrets.needsSealing(TaskPushNotificationConfig.fromJSON(json))) return undefined;
  return encodePushConfig(tenant, decodePushConfig(tenant, json, secrets), secrets);
}

/** A stream event as ProtoJSON text. */
export function encodeEvent(event: StreamResponse): string {
  return JSON.stringify(StreamResponse.toJSON(event));
}

/** Reverses {@link encodeEvent}. */
export function decodeEvent(stored: string): StreamResponse {
  return StreamResponse.fromJSON(JSON.parse(stored));
}

/** A recorded send outcome as two nullable columns: the task id, or the message reply as ProtoJSON text. */
export function encodeSendOutcome(outcome: SendOutcome): { taskId: string | null; reply: string | null } {
  return outcome.kind === 'task' ? { taskId: outcome.taskId, reply: null } : { taskId: null, reply: JSON.stringify(Message.toJSON(outcome.message)) };
}

/** Reverses {@link encodeSendOutcome}; undefined while the send is only claimed (both empty). */
export function decodeSendOutcome(taskId: string | null | undefined, reply: unknown): SendOutcome | undefined {
  if (taskId) return { kind: 'task', taskId };
  if (reply === null || reply === undefined) return undefined;
  return { kind: 'message', message: Message.fromJSON(typeof reply === 'string' ? JSON.parse(reply) : reply) };
}
