import type { StreamResponse } from '@a2a-polyglot/model';
import type { Logger } from '../logger.js';
import { runKey } from '../request-handler-helpers.js';
import type { CallObserver } from '../observer.js';
import type { PushConfigStore, StoredPushConfig } from './push-config-store.js';
import type { PushOutcome, PushSender } from './push-sender.js';

/**
 * Fans task events out to the task's webhooks without ever blocking the task: each webhook
 * has its own queue, so events reach every webhook in log order while a slow or dead
 * webhook delays only itself. Each delivery's outcome goes to the observer (metrics).
 */
export class PushDispatcher {
  /** Per task with a lookup pending: the chain of lookups and how many events it holds. */
  private readonly taskChains = new Map<string, { chain: Promise<void>; events: number }>();
  private readonly configChains = new Map<string, Promise<void>>();
  /**
   * Configs registered here while their task had lookups pending, with the number of events
   * dispatched before them: a lookup that runs late (a database store) would otherwise find
   * the new config and deliver it an event that happened before it existed. Dropped with the
   * task's chain, once no such lookup is left.
   */
  private readonly registeredLate = new Map<string, Map<string, number>>();

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
      (this.taskChains.size === 0 || !this.taskChains.has(runKey(tenant, taskId)))
    )
      return;
    const taskKey = runKey(tenant, taskId);
    const pending = this.taskChains.get(taskKey);
    const entry = pending ?? { chain: Promise.resolve(), events: 0 };
    const ordinal = ++entry.events;
    const next = entry.chain
      .then(async () => {
        const configs = await this.configs.list(tenant, taskId);
        const late = this.registeredLate.get(taskKey);
        for (const config of configs) {
          if (late && (late.get(config.id) ?? 0) >= ordinal) continue;
          this.enqueue(`${taskKey}\u0000${config.id}`, () => this.deliver(tenant, taskId, config, event));
        }
      })
      .catch((error: unknown) => {
        this.logger.error({ taskId, err: error }, 'push dispatch failed');
        this.observer?.pushDelivered?.('dropped', { tenant, taskId });
      });
    entry.chain = next;
    if (!pending) this.taskChains.set(taskKey, entry);
    void next.then(() => {
      if (this.taskChains.get(taskKey)?.chain === next) {
        this.taskChains.delete(taskKey);
        this.registeredLate.delete(taskKey);
      }
    });
  }

  /**
   * Tells the dispatcher a config is about to be saved: events dispatched before this moment skip
   * it, even where their lookup has not run yet, so a webhook gets only what happens after its
   * registration (on every store, not only the in-memory one whose lookup is immediate).
   * A config registered through another instance has no such fence.
   */
  registered(tenant: string, taskId: string, configId: string): void {
    const taskKey = runKey(tenant, taskId);
    const pending = this.taskChains.get(taskKey);
    if (!pending) return;
    let late = this.registeredLate.get(taskKey);
    if (!late) {
      late = new Map();
      this.registeredLate.set(taskKey, late);
    }
    late.set(configId, pending.events);
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
      await Promise.all([...[...this.taskChains.values()].map((entry) => entry.chain), ...this.configChains.values()]);
    }
  }
}
