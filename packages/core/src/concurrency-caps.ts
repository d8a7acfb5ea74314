/**
 * Caps on the runs one `RequestHandler` executes at once: in all, and per identity (see
 * `RequestHandlerOptions.maxConcurrentTasks`). A send that would start a run past a cap is
 * refused with ResourceExhausted and a `retryAfterSeconds` hint (HTTP 429 + `Retry-After`,
 * gRPC RESOURCE_EXHAUSTED), before anything is stored or executed.
 * @internal
 */
import { A2AError } from './a2a-error.js';
import { A2AErrorCode } from './error-code.js';
import { RETRY_AFTER_METADATA_KEY } from './rate-limit.js';

/** What a refused caller is told to wait before it tries again, in seconds: runs end at their own pace, so a short hint. */
export const CONCURRENCY_RETRY_AFTER_SECONDS = 1;

/** Ends the hold of one slot; calling it again does nothing. */
export type ReleaseSlot = () => void;

/** The release of a send that holds no slot (no cap set): nothing to give back. */
export const NO_SLOT: ReleaseSlot = () => undefined;

/**
 * Counts the slots held by runs (and by sends setting one up) and refuses one past a cap.
 * Synchronous, so a check and its taking of the slot cannot interleave with another send's.
 */
export class ConcurrencyCaps {
  private held = 0;
  private readonly byIdentity = new Map<string, number>();

  constructor(
    private readonly maxTasks: number | undefined,
    private readonly maxTasksPerIdentity: number | undefined,
  ) {}

  /** True when neither cap is set (every send is admitted without counting). */
  get off(): boolean {
    return this.maxTasks === undefined && this.maxTasksPerIdentity === undefined;
  }

  /**
   * Takes a slot for a run of `identity` (the caller's owner; undefined when the caller is
   * anonymous, who only the overall cap counts), or throws ResourceExhausted naming the cap.
   */
  acquire(identity: string | undefined): ReleaseSlot {
    if (this.off) return NO_SLOT;
    if (this.maxTasks !== undefined && this.held >= this.maxTasks) throw capReached('agent', this.maxTasks);
    const counted = identity !== undefined && this.maxTasksPerIdentity !== undefined ? identity : undefined;
    const mine = counted === undefined ? 0 : (this.byIdentity.get(counted) ?? 0);
    if (counted !== undefined && this.maxTasksPerIdentity !== undefined && mine >= this.maxTasksPerIdentity)
      throw capReached('identity', this.maxTasksPerIdentity);
    this.held++;
    if (counted !== undefined) this.byIdentity.set(counted, mine + 1);
    let holding = true;
    return () => {
      if (!holding) return;
      holding = false;
      this.held--;
      if (counted === undefined) return;
      const left = (this.byIdentity.get(counted) ?? 1) - 1;
      if (left > 0) this.byIdentity.set(counted, left);
      else this.byIdentity.delete(counted);
    };
  }
}

/** The refusal of a send past a cap: ResourceExhausted, with the wait hint and which cap in the ErrorInfo metadata. */
function capReached(scope: 'agent' | 'identity', limit: number): A2AError {
  const who = scope === 'agent' ? 'this agent' : 'this identity on this agent';
  return new A2AError(A2AErrorCode.ResourceExhausted, `Too many running tasks for ${who} (limit ${limit}); retry when one has finished`, {
    metadata: { [RETRY_AFTER_METADATA_KEY]: String(CONCURRENCY_RETRY_AFTER_SECONDS), scope: `${scope}-tasks`, limit: String(limit) },
  });
}
