import { closeExecutor } from '@a2a-polyglot/bridges';
import type { Logger, RequestHandler } from '@a2a-polyglot/core';
import type { A2AMetrics } from '@a2a-polyglot/metrics';
import type { A2AHttpOptions, AgentMounts } from '@a2a-polyglot/server';
import type { ServedAgent } from './agents.js';

/** What {@link AgentDirectory} needs from the service. */
export interface AgentDirectoryOptions {
  /** The listener's table of mounted agents (HTTP, WebSocket and the `/agents` listing read it). */
  readonly mounts: AgentMounts;
  /** The listener options of one agent (its bindings, card interfaces, limits). */
  readonly mountOptions: (agent: ServedAgent) => A2AHttpOptions;
  /** The agent also served at the root: never removed while the service runs. */
  readonly defaultId: string;
  /** How long a removed agent's running tasks may take to finish before they are failed. */
  readonly removalGraceMs: number;
  readonly metrics: A2AMetrics;
  readonly logger: Logger;
}

/**
 * The agents the executor serves right now, by id (the single agent too): one place that mounts an agent on
 * every binding (HTTP, WebSocket through the mount table; gRPC looks agents up here) and takes
 * it down again. Why a class: the agent registry adds and removes agents while requests run,
 * and every binding must agree on the set at every moment.
 *
 * Removing an agent: its paths and gRPC address answer as unknown at once (no new calls), its
 * running tasks get `removalGraceMs` to finish and are then FAILED with a status message that
 * names the removal (subscribers see it on their streams; push subscribers get it too), and
 * its executor is closed.
 */
export class AgentDirectory {
  private readonly agents = new Map<string, ServedAgent>();
  /** Removed agents whose running tasks are still finishing. */
  private readonly draining = new Set<Promise<void>>();

  constructor(private readonly options: AgentDirectoryOptions) {}

  /**
   * Serves `agent` on every binding from now on (the single agent, mount path `''`, is served at
   * the root only: nothing to mount). Throws when its id is already served.
   */
  add(agent: ServedAgent): void {
    if (this.agents.has(agent.id)) throw new Error(`Agent ${agent.id} is already served`);
    if (agent.mountPath !== '') this.options.mounts.add(this.options.mountOptions(agent));
    this.agents.set(agent.id, agent);
  }

  /** The agent served under `id`, if any. */
  get(id: string): ServedAgent | undefined {
    return this.agents.get(id);
  }

  /** The handler of agent `id` (gRPC routing). */
  handler(id: string): RequestHandler | undefined {
    return this.agents.get(id)?.handler;
  }

  /** Every agent served now, in the order they were added. */
  list(): ServedAgent[] {
    return [...this.agents.values()];
  }

  /**
   * Takes agent `id` off every binding at once (its id is free for a new agent when this
   * returns), then, in the background, lets its running tasks finish within the grace period,
   * fails the rest visibly and closes its executor (see the class comment). The default agent
   * stays. Returns that background work (undefined when nothing was removed).
   */
  remove(id: string, why: string): Promise<void> | undefined {
    const agent = this.agents.get(id);
    if (!agent || id === this.options.defaultId) return undefined;
    this.agents.delete(id);
    const sockets = this.options.mounts.remove(agent.mountPath);
    this.options.logger.info({ agentId: id, reason: why }, 'Agent removed');
    const drained = (async () => {
      await sockets;
      await agent.handler.shutdown(this.options.removalGraceMs, `The agent ${id} was removed (${why}) before the task finished`);
      this.options.metrics.unwatch(agent.handler);
      await closeExecutor(agent.executor);
    })()
      .catch((error: unknown) => this.options.logger.warn({ agentId: id, err: error }, 'Closing a removed agent failed'))
      .finally(() => this.draining.delete(drained));
    this.draining.add(drained);
    return drained;
  }

  /** Resolves once every removed agent has finished draining (service shutdown waits for it). */
  async drained(): Promise<void> {
    await Promise.all([...this.draining]);
  }
}
