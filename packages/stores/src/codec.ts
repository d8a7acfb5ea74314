import { StreamResponse, Task, TaskPushNotificationConfig } from '@a2a-polyglot/model';

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

/** A push notification config as ProtoJSON text. */
export function encodePushConfig(config: TaskPushNotificationConfig): string {
  return JSON.stringify(TaskPushNotificationConfig.toJSON(config));
}

/** Reverses {@link encodePushConfig}. */
export function decodePushConfig(stored: unknown): TaskPushNotificationConfig {
  return TaskPushNotificationConfig.fromJSON(typeof stored === 'string' ? JSON.parse(stored) : stored);
}

/** A stream event as ProtoJSON text. */
export function encodeEvent(event: StreamResponse): string {
  return JSON.stringify(StreamResponse.toJSON(event));
}

/** Reverses {@link encodeEvent}. */
export function decodeEvent(stored: string): StreamResponse {
  return StreamResponse.fromJSON(JSON.parse(stored));
}
