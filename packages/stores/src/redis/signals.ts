import { isTaskSignalKind, silentLogger, type Logger, type TaskSignal, type TaskSignals } from '@a2a-polyglot/core';
import { unavailable } from '../errors.js';
import type { RedisConnections } from './connections.js';

/**
 * Core's {@link TaskSignals} on Redis pub/sub: one channel per deployment (`<prefix>:signals`)
 * on the instance's shared subscriber connection. At-most-once, like pub/sub itself; the lease
 * renewal catches a lost signal (the run finds its lease gone and stops).
 */
export class RedisTaskSignals implements TaskSignals {
  private readonly channel: string;
  private readonly logger: Logger;

  constructor(
    private readonly redis: RedisConnections,
    options: { readonly prefix?: string; readonly logger?: Logger } = {},
  ) {
    this.channel = `${options.prefix ?? 'a2a'}:signals`;
    this.logger = options.logger ?? silentLogger;
  }

  async publish(signal: TaskSignal): Promise<void> {
    try {
      await this.redis.commands.publish(this.channel, JSON.stringify(signal));
    } catch (error) {
      throw unavailable('signal channel (Redis)', error);
    }
  }

  subscribe(listener: (signal: TaskSignal) => void): () => void {
    let removed = false;
    let remove: (() => void) | undefined;
    this.redis.subscriber
      .subscribe(this.channel, (message) => {
        const signal = parseSignal(message);
        if (signal) listener(signal);
        else this.logger.warn('ignored a malformed task signal');
      })
      .then(
        (r) => {
          if (removed) r();
          else remove = r;
        },
        (error: unknown) => this.logger.error({ err: error }, 'subscribing to task signals failed'),
      );
    return () => {
      removed = true;
      remove?.();
    };
  }
}

function parseSignal(message: string): TaskSignal | undefined {
  try {
    const value = JSON.parse(message) as Partial<TaskSignal>;
    if (isTaskSignalKind(value.kind) && typeof value.tenant === 'string' && typeof value.taskId === 'string' && typeof value.origin === 'string') {
      return { kind: value.kind, tenant: value.tenant, taskId: value.taskId, origin: value.origin };
    }
  } catch {
    // fall through
  }
  return undefined;
}
