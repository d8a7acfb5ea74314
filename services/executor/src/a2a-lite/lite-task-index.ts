/** How many A2A tasks one Lite task id may name at once (different callers reusing an id). */
const CANDIDATES_PER_ID = 8;
/** How many Lite ids are remembered per agent (oldest forgotten first). */
const MAX_IDS = 10_000;

/**
 * Which A2A task a Lite task id (`[A2A:task id=X]`, later `task=X`) names. Lite ids are
 * chosen by the peer, so they are only unique per peer: an id maps to the few A2A tasks
 * created under it, newest first, and the handler picks the first the caller may see (its
 * own; ownership is the core's check) in the caller's context. A peer can always skip the
 * lookup with `ref=<A2A task id>`, which every tagged answer carries.
 *
 * In memory, per agent: after a restart the peer's `ref=` still works. Hand-written bound
 * (insertion-ordered Map), see {@link KnownLiteAgents}.
 */
export class LiteTaskIndex {
  private readonly ids = new Map<string, string[]>();

  /** Records that the Lite task `liteId` of `tenant` is the A2A task `taskId`. */
  remember(tenant: string, liteId: string, taskId: string): void {
    const key = indexKey(tenant, liteId);
    const list = (this.ids.get(key) ?? []).filter((id) => id !== taskId);
    list.unshift(taskId);
    this.ids.delete(key);
    this.ids.set(key, list.slice(0, CANDIDATES_PER_ID));
    if (this.ids.size > MAX_IDS) {
      const oldest = this.ids.keys().next();
      if (!oldest.done) this.ids.delete(oldest.value);
    }
  }

  /** The A2A task ids recorded for `liteId`, newest first. */
  candidates(tenant: string, liteId: string): readonly string[] {
    return this.ids.get(indexKey(tenant, liteId)) ?? [];
  }
}

function indexKey(tenant: string, liteId: string): string {
  return `${tenant}\u0000${liteId}`;
}
