import { principalScope } from './principal-scope.js';
import { ScopedLru } from './scoped-lru.js';

/** How many A2A tasks one Lite task id of one caller may name at once (the caller reusing an id). */
const CANDIDATES_PER_ID = 8;
/** How many Lite ids are remembered per agent, all callers together (least recently used forgotten first). */
export const LITE_INDEX_MAX_IDS = 10_000;
/** How many of those one caller (principal) may hold: a caller that uses more forgets its own oldest. */
export const LITE_INDEX_MAX_IDS_PER_PRINCIPAL = 1_000;

/**
 * Which A2A task a Lite task id (`[A2A:task id=X]`, later `task=X`) names. Lite ids are
 * chosen by the peer, so they are only unique per peer: the index is kept per caller
 * (principal; tenant and Lite id within it), and an id maps to the few A2A tasks that caller
 * created under it, newest first. Another caller reusing the id has an entry of its own and
 * cannot push the first caller's tasks out; the handler still asks GetTask (ownership is the
 * core's check). A peer can always skip the lookup with `ref=<A2A task id>`, which every
 * tagged answer carries.
 *
 * In memory, per agent: after a restart the peer's `ref=` still works.
 */
export class LiteTaskIndex {
  private readonly ids: ScopedLru<readonly string[]>;

  constructor(limits: { readonly maxIds?: number; readonly maxIdsPerPrincipal?: number } = {}) {
    this.ids = new ScopedLru({
      maxEntries: limits.maxIds ?? LITE_INDEX_MAX_IDS,
      maxEntriesPerScope: limits.maxIdsPerPrincipal ?? LITE_INDEX_MAX_IDS_PER_PRINCIPAL,
    });
  }

  /** Records that the Lite task `liteId` of `principal` (undefined: anonymous) in `tenant` is the A2A task `taskId`. */
  remember(tenant: string, principal: string | undefined, liteId: string, taskId: string): void {
    const scope = principalScope(principal);
    const key = indexKey(tenant, liteId);
    const list = (this.ids.get(scope, key) ?? []).filter((id) => id !== taskId);
    this.ids.set(scope, key, [taskId, ...list].slice(0, CANDIDATES_PER_ID));
  }

  /** The A2A task ids `principal` recorded for `liteId` in `tenant`, newest first. */
  candidates(tenant: string, principal: string | undefined, liteId: string): readonly string[] {
    return this.ids.get(principalScope(principal), indexKey(tenant, liteId)) ?? [];
  }
}

function indexKey(tenant: string, liteId: string): string {
  return JSON.stringify([tenant, liteId]);
}
