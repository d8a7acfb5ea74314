/**
 * A {@link RunQueue} in memory for unit tests of its users (the core ships none: a real queue
 * is an engine's, see `@a2a-polyglot/stores`). It records every call; a lease never runs out
 * by itself: {@link FakeRunQueue.expire} ends one, so no test waits for time to pass.
 */
import { Role } from '@a2a-polyglot/model';
import type { ClaimedRun, QueuedRun, RunQueue } from '../src/run-queue.js';

interface Entry {
  readonly id: string;
  readonly run: QueuedRun;
  attempts: number;
  claimedBy: string | undefined;
}

/** A run for agent `agent` of task `taskId`, with nothing else in it. */
export function queuedRun(taskId: string, agent = 'echo'): QueuedRun {
  return {
    agent,
    tenant: '',
    taskId,
    owner: undefined,
    principal: undefined,
    message: { messageId: `m-${taskId}`, contextId: 'c', taskId, role: Role.ROLE_USER, parts: [], metadata: undefined, extensions: [], referenceTaskIds: [] },
    configuration: undefined,
    metadata: undefined,
    extensions: [],
    streaming: false,
    followUp: false,
    version: 1,
  };
}

/** The queue: entries in enqueue order, each claimable while no worker holds it. */
export class FakeRunQueue implements RunQueue {
  readonly entries: Entry[] = [];
  readonly claims: string[] = [];
  readonly heartbeats: Array<{ worker: string; ids: string[]; leaseMs: number }> = [];
  readonly acks: string[] = [];
  readonly releases: string[] = [];
  /** Set to make the next claims reject (then cleared) or wait on a promise of the test's. */
  failNextClaim: Error | undefined;
  claimGate: Promise<void> | undefined;
  private next = 0;

  async enqueue(run: QueuedRun): Promise<void> {
    this.entries.push({ id: `e${this.next++}`, run, attempts: 0, claimedBy: undefined });
  }

  async claim(agent: string, worker: string): Promise<ClaimedRun | undefined> {
    this.claims.push(worker);
    if (this.claimGate) await this.claimGate;
    if (this.failNextClaim) {
      const error = this.failNextClaim;
      this.failNextClaim = undefined;
      throw error;
    }
    const entry = this.entries.find((e) => e.run.agent === agent && e.claimedBy === undefined);
    if (!entry) return undefined;
    entry.claimedBy = worker;
    entry.attempts++;
    return { id: entry.id, run: entry.run, attempt: entry.attempts };
  }

  async heartbeat(worker: string, ids: readonly string[], leaseMs: number): Promise<string[]> {
    this.heartbeats.push({ worker, ids: [...ids], leaseMs });
    return ids.filter((id) => this.entries.find((e) => e.id === id)?.claimedBy !== worker);
  }

  async ack(id: string, worker: string): Promise<void> {
    this.acks.push(id);
    const i = this.entries.findIndex((e) => e.id === id && e.claimedBy === worker);
    if (i >= 0) this.entries.splice(i, 1);
  }

  async release(id: string, worker: string): Promise<void> {
    this.releases.push(id);
    const entry = this.entries.find((e) => e.id === id && e.claimedBy === worker);
    if (entry) entry.claimedBy = undefined;
  }

  async holds(tenant: string, taskId: string): Promise<boolean> {
    return this.entries.some((e) => e.run.tenant === tenant && e.run.taskId === taskId);
  }

  /** The lease of entry `id` ran out: any worker may claim it again. */
  expire(id: string): void {
    const entry = this.entries.find((e) => e.id === id);
    if (entry) entry.claimedBy = undefined;
  }
}
