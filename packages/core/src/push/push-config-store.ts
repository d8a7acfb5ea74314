import type { TaskPushNotificationConfig } from '@a2a-polyglot/model';
import { deepCopy } from '../deep-copy.js';

/**
 * Where webhook registrations live, scoped by tenant and task. Durable stores keep them next
 * to the tasks they belong to.
 */
export interface PushConfigStore {
  /** Inserts or replaces the config with the same (tenant, taskId, id). */
  put(tenant: string, config: TaskPushNotificationConfig): Promise<void>;
  get(tenant: string, taskId: string, id: string): Promise<TaskPushNotificationConfig | undefined>;
  /** All configs of a task in registration order. */
  list(tenant: string, taskId: string): Promise<TaskPushNotificationConfig[]>;
  /** Idempotent: deleting a missing config is not an error. */
  delete(tenant: string, taskId: string, id: string): Promise<void>;
  /** Drops every config of a task (task evicted). */
  deleteAll(tenant: string, taskId: string): Promise<void>;
  /**
   * Optional synchronous hint: false only when the task certainly has no config right now.
   * Lets push dispatch skip its per-event lookup for the (common) task without webhooks; a
   * store that cannot answer synchronously (a database shared with other instances) leaves it
   * out, and every event is looked up.
   */
  mayHaveConfigs?(tenant: string, taskId: string): boolean;
}

/** The embedded default. */
export class InMemoryPushConfigStore implements PushConfigStore {
  private readonly byTask = new Map<string, Map<string, TaskPushNotificationConfig>>();

  private static key(tenant: string, taskId: string): string {
    return `${tenant}\u0000${taskId}`;
  }

  async put(tenant: string, config: TaskPushNotificationConfig): Promise<void> {
    const key = InMemoryPushConfigStore.key(tenant, config.taskId);
    let configs = this.byTask.get(key);
    if (!configs) {
      configs = new Map();
      this.byTask.set(key, configs);
    }
    configs.set(config.id, deepCopy(config));
  }

  async get(tenant: string, taskId: string, id: string): Promise<TaskPushNotificationConfig | undefined> {
    const found = this.byTask.get(InMemoryPushConfigStore.key(tenant, taskId))?.get(id);
    return found && deepCopy(found);
  }

  async list(tenant: string, taskId: string): Promise<TaskPushNotificationConfig[]> {
    return [...(this.byTask.get(InMemoryPushConfigStore.key(tenant, taskId))?.values() ?? [])].map((c) => deepCopy(c));
  }

  async delete(tenant: string, taskId: string, id: string): Promise<void> {
    this.byTask.get(InMemoryPushConfigStore.key(tenant, taskId))?.delete(id);
  }

  async deleteAll(tenant: string, taskId: string): Promise<void> {
    this.byTask.delete(InMemoryPushConfigStore.key(tenant, taskId));
  }

  mayHaveConfigs(tenant: string, taskId: string): boolean {
    // No config anywhere (push unused): answered without building the task's key.
    if (this.byTask.size === 0) return false;
    return (this.byTask.get(InMemoryPushConfigStore.key(tenant, taskId))?.size ?? 0) > 0;
  }
}
