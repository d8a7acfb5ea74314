import type { TaskPushNotificationConfig } from '@a2a-polyglot/model';
import { deepCopy } from '../deep-copy.js';
import type { ProtocolVersion } from '../protocol-version.js';

/**
 * A webhook registration as a store keeps it: the wire config plus what only the server needs
 * to know about it. {@link protocolVersion} is never part of a wire message (no binding
 * encodes it): Get and List answer the config's wire members only.
 */
export interface StoredPushConfig extends TaskPushNotificationConfig {
  /**
   * The generation the config was registered in (the call's `wireVersion`): its webhook gets
   * bodies and headers of that generation. Absent: 1.0 (stores written before it existed).
   */
  readonly protocolVersion?: ProtocolVersion;
}

/**
 * Where webhook registrations live, scoped by tenant and task. Durable stores keep them next
 * to the tasks they belong to, and keep each config's {@link StoredPushConfig.protocolVersion}.
 */
export interface PushConfigStore {
  /** Inserts or replaces the config with the same (tenant, taskId, id). */
  put(tenant: string, config: StoredPushConfig): Promise<void>;
  get(tenant: string, taskId: string, id: string): Promise<StoredPushConfig | undefined>;
  /** All configs of a task in registration order. */
  list(tenant: string, taskId: string): Promise<StoredPushConfig[]>;
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
  private readonly byTask = new Map<string, Map<string, StoredPushConfig>>();

  private static key(tenant: string, taskId: string): string {
    return `${tenant}\u0000${taskId}`;
  }

  async put(tenant: string, config: StoredPushConfig): Promise<void> {
    const key = InMemoryPushConfigStore.key(tenant, config.taskId);
    let configs = this.byTask.get(key);
    if (!configs) {
      configs = new Map();
      this.byTask.set(key, configs);
    }
    configs.set(config.id, deepCopy(config));
  }

  async get(tenant: string, taskId: string, id: string): Promise<StoredPushConfig | undefined> {
    const found = this.byTask.get(InMemoryPushConfigStore.key(tenant, taskId))?.get(id);
    return found && deepCopy(found);
  }

  async list(tenant: string, taskId: string): Promise<StoredPushConfig[]> {
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
