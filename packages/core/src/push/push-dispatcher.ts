import type { StreamResponse } from '@a2a-polyglot/model';
import type { Logger } from '../logger.js';
import type { CallObserver } from '../observer.js';
import type { PushConfigStore, StoredPushConfig } from './push-config-store.js';
import type { PushOutcome, PushSender } from './push-sender.js';

/**
 * Fans task events out to the task's webhooks without ever blocking the task: each webhook
 * has its own queue, so events reach every webhook in log order while a slow or dead
 * webhook delays only itself. Each delivery's outcome goes to the observer (metrics).
 */
export class PushDispatcher {
  private readonly taskChains = new Map<string, Promise<void>>();
  private readonly configChains = new Map<string, Promise<void>>();

  constructor(
    private readonly configs: PushConfigStore,
    private readonly sender: PushSender,
    private readonly logger: Logger,
    private readonly observer?: CallObserver,
  ) {}

  /** Queues delivery of `event` to every webhook registered for the task at this moment. */
  dispatch(tenant: string, taskId: string, event: StreamResponse): void {
    // No webhook now and no earlier event of the task still being looked up: nothing to do.
    // (With a lookup pending, this event queues behind it, so a config registered meanwhile
    // sees the task's events without a hole.) Asked first, so the usual event of a task
    // without webhooks builds no key.
    if (
      this.configs.mayHaveConfigs &&
      !this.configs.mayHaveConfigs(tenant, taskId) &&
      (this.taskChains.size === 0 || !this.taskChains.has(`${tenant}\u0000${taskId}`))
    )
      return;
    const taskKey = `${tenant}\u0000${taskId}`;
    const next = (this.taskChains.get(taskKey) ?? Promise.resolve())
      .then(async () => {
        const configs = await this.configs.list(tenant, taskId);
        for (const config of configs) this.enqueue(`${taskKey}\u0000${config.id}`, () => this.deliver(tenant, taskId, config, event));
      })
      .catch((error: unknown) => {
        this.logger.error({ taskId, err: error }, 'push dispatch failed');
        this.observer?.pushDelivered?.('dropped', { tenant, taskId });
      });
    this.taskChains.set(taskKey, next);
    void next.then(() => {
      if (this.taskChains.get(taskKey) === next) this.taskChains.delete(taskKey);
    });
  }

  /** One delivery, its outcome reported (a sender that says nothing is not counted). */
  private async deliver(tenant: string, taskId: string, config: StoredPushConfig, event: StreamResponse): Promise<void> {
    const outcome = (await this.sender.send(config, event)) as PushOutcome | undefined;
    if (outcome) this.observer?.pushDelivered?.(outcome, { tenant, taskId });
  }

  private enqueue(key: string, job: () => Promise<void>): void {
    const next = (this.configChains.get(key) ?? Promise.resolve()).then(job).catch(() => undefined);
    this.configChains.set(key, next);
    void next.then(() => {
      if (this.configChains.get(key) === next) this.configChains.delete(key);
    });
  }

  /** Resolves when every queued delivery has finished (shutdown, tests). */
  async idle(): Promise<void> {
    while (this.taskChains.size > 0 || this.configChains.size > 0) {
      await Promise.all([...this.taskChains.values(), ...this.configChains.values()]);
    }
  }
}
