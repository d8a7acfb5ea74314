/**
 * The runs executing in this process and the tasks being set up for one, owned in one place.
 * @internal
 */
import type { A2AError } from './a2a-error.js';
import { runKey } from './request-handler-helpers.js';
import type { TaskRun } from './task-run.js';

/** Ends a {@link RunRegistry.reserve} reservation; calling it again does nothing. */
export type ReleaseReservation = () => void;

/**
 * Who holds a task in this process: the run executing it (by {@link runKey}), or a follow-up
 * or cancel being set up for it. One owner so the rules of both live here and the modules
 * that start, cancel, read and renew runs only ask it.
 *
 * The async gap: between the check that nothing holds a task and the registration of its new
 * run (or the cancel's write) there are awaits (loading the stored task, claiming its lease,
 * writing CANCELED). For that time the task is {@link reserve}d, so another follow-up or
 * cancel in this process sees it taken and is refused instead of racing this one; a
 * reservation belongs to whoever took it, and only its own release ends it. Across instances
 * the store's version check and lease arbitrate instead.
 */
export class RunRegistry {
  private readonly runs = new Map<string, TaskRun>();
  private readonly reserved = new Set<string>();

  /** The run executing the task of `key` ({@link runKey}) in this process, if any. */
  get(key: string): TaskRun | undefined {
    return this.runs.get(key);
  }

  /** {@link get} by tenant and task id. */
  find(tenant: string, taskId: string): TaskRun | undefined {
    return this.runs.get(runKey(tenant, taskId));
  }

  /** True while a run executes the task of `key` here or a follow-up or cancel is being set up for it. */
  busy(key: string): boolean {
    return this.runs.has(key) || this.reserved.has(key);
  }

  /** True while a follow-up or cancel is being set up for the task of `key` (see the class doc). */
  isReserved(key: string): boolean {
    return this.reserved.has(key);
  }

  /**
   * Reserves the task of `key` across the async gap (see the class doc); throws `taken()`
   * (each caller names its own refusal) when someone else already reserved it.
   */
  reserve(key: string, taken: () => A2AError): ReleaseReservation {
    if (this.reserved.has(key)) throw taken();
    this.reserved.add(key);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      this.reserved.delete(key);
    };
  }

  /** Makes `run` the run of its task here: readers, cancel and lease renewal find it from now on. */
  register(run: TaskRun): void {
    this.runs.set(runKey(run.tenant, run.taskId), run);
  }

  /** Forgets `run` once it ended (or never started); a newer run of the same task stays. */
  unregister(run: TaskRun): void {
    const key = runKey(run.tenant, run.taskId);
    if (this.runs.get(key) === run) this.runs.delete(key);
  }

  /** The runs executing now (shutdown, lease renewal); a snapshot, safe to hold across awaits. */
  active(): TaskRun[] {
    return [...this.runs.values()];
  }

  /** Number of runs executing now. */
  get size(): number {
    return this.runs.size;
  }
}
