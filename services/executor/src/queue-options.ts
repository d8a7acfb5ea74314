import type { QueueOptions, RunQueue } from '@a2a-polyglot/core';
import type { ExecutorConfig } from './config.js';

/**
 * The run-queue options of one agent's RequestHandler (`queue.enabled`): its name in the queue
 * (`agent`: the entry id, '' for the single agent), its `retryable` flag, and what the
 * instance's `role` lets it do — a frontend enqueues the sends it receives and runs nothing, a
 * worker runs queued runs, `all` does both. Undefined without a queue: tasks run where received.
 */
export function queueOptions(config: ExecutorConfig, queue: RunQueue | undefined, agent: string, retryable: boolean): QueueOptions | undefined {
  if (!queue) return undefined;
  return {
    queue,
    agent,
    retryable,
    enqueue: true,
    work: config.role !== 'frontend',
    pollMs: config.queue.pollMs,
    concurrency: config.queue.concurrency,
  };
}
