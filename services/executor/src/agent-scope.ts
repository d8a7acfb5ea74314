import type {
  AbandonedQuery,
  ClusterOptions,
  EventLog,
  IdempotencyStore,
  LoggedEvent,
  PushConfigStore,
  RequestHandlerOptions,
  SealOptions,
  SendKey,
  StoredTask,
  TaskRef,
  TaskSignal,
  TaskSignals,
  TaskStore,
  TenantPartition,
} from '@a2a-polyglot/core';

/** The backends one request handler is given (see `Backends.handlerOptions`). */
export type HandlerBackends = Pick<RequestHandlerOptions, 'taskStore' | 'pushConfigStore' | 'idempotencyStore' | 'eventLog' | 'cluster'>;

/**
 * Marks a partition that belongs to a mounted agent other than the default one. `@` is never
 * the first character of an encoded tenant (`encodeURIComponent` escapes it), and the default
 * agent's own tenants that start with it are escaped by doubling it, so the mapping is injective.
 */
const AGENT_MARK = '@';

/**
 * How the tenants of one agent map into the partition of the stores every agent shares: the
 * default agent (`agentId` undefined) keeps its tenants as they are, so a single agent's
 * existing rows stay its own; agent `b`'s tenant `t` is stored as `@b/t`. A tenant of the
 * default agent starting with `@` is stored as `@@…`, so no caller of the default agent can
 * name another agent's partition. Injective because an agent id (`agentId` of the config
 * schema) holds no `/` and starts with a letter or digit.
 */
export class AgentScope {
  private readonly prefix: string | undefined;

  constructor(readonly agentId: string | undefined) {
    this.prefix = agentId === undefined ? undefined : `${AGENT_MARK}${agentId}/`;
  }

  /** The stored tenant of this agent's `tenant`. */
  inner(tenant: string): string {
    if (this.prefix !== undefined) return this.prefix + tenant;
    return tenant.startsWith(AGENT_MARK) ? AGENT_MARK + tenant : tenant;
  }

  /** This agent's tenant of a stored tenant, or undefined when the partition is another agent's. */
  outer(stored: string): string | undefined {
    if (this.prefix !== undefined) return stored.startsWith(this.prefix) ? stored.slice(this.prefix.length) : undefined;
    if (!stored.startsWith(AGENT_MARK)) return stored;
    return stored.startsWith(AGENT_MARK + AGENT_MARK) ? stored.slice(AGENT_MARK.length) : undefined;
  }

  /**
   * The stored tenants of this agent as a store query takes them (the sweep's `abandoned`), so
   * the store returns this agent's rows only: `@b/…` for agent `b`; for the default agent every
   * tenant but those of another agent, i.e. not starting with `@` unless with the escape `@@`.
   */
  partition(): TenantPartition {
    return this.prefix !== undefined ? { prefix: this.prefix } : { exceptPrefix: AGENT_MARK, keepPrefix: AGENT_MARK + AGENT_MARK };
  }

  /** The event-log key of this agent's `key` (a `taskLogKey`, whose first segment is an encoded tenant). */
  logKey(key: string): string {
    return this.prefix === undefined ? key : `${AGENT_MARK}${encodeURIComponent(this.agentId ?? '')}/${key}`;
  }
}

/**
 * `backends` as agent `agentId` sees them (undefined: the default agent): one table, file,
 * schema or key prefix shared by every agent, with the agent in the partition (see
 * {@link AgentScope}), so no agent reads, lists, cancels or sweeps another's tasks. Stores
 * that `backends` leaves out (in memory) stay out: each agent then gets its own.
 */
export function scopedBackends(backends: HandlerBackends, agentId: string | undefined): HandlerBackends {
  const scope = new AgentScope(agentId);
  return {
    ...(backends.taskStore ? { taskStore: scopedTaskStore(backends.taskStore, scope) } : {}),
    ...(backends.pushConfigStore ? { pushConfigStore: scopedPushConfigStore(backends.pushConfigStore, scope) } : {}),
    ...(backends.idempotencyStore ? { idempotencyStore: scopedIdempotencyStore(backends.idempotencyStore, scope) } : {}),
    ...(backends.eventLog ? { eventLog: scopedEventLog(backends.eventLog, scope) } : {}),
    ...(backends.cluster ? { cluster: scopedCluster(backends.cluster, scope) } : {}),
  };
}

function scopedTaskStore(store: TaskStore, scope: AgentScope): TaskStore {
  const out = (stored: StoredTask): StoredTask | undefined => {
    const tenant = scope.outer(stored.tenant);
    return tenant === undefined ? undefined : { ...stored, tenant };
  };
  const inRef = (ref: TaskRef): TaskRef => ({ tenant: scope.inner(ref.tenant), taskId: ref.taskId });
  const renewLeases = store.renewLeases?.bind(store);
  const abandoned = store.abandoned?.bind(store);
  const admitNewTask = store.admitNewTask?.bind(store);
  return {
    get: async (tenant, taskId) => {
      const stored = await store.get(scope.inner(tenant), taskId);
      return stored && out(stored);
    },
    save: (task, expectedVersion, lease, options) => store.save({ ...task, tenant: scope.inner(task.tenant) }, expectedVersion, lease, options),
    list: async (query) => {
      const page = await store.list({ ...query, tenant: scope.inner(query.tenant) });
      return { ...page, tasks: page.tasks.flatMap((t) => out(t) ?? []) };
    },
    delete: (tenant, taskId) => store.delete(scope.inner(tenant), taskId),
    ...(renewLeases
      ? {
          renewLeases: async (owner: string, tasks: readonly TaskRef[], ttlMs: number) => {
            const lost = await renewLeases(owner, tasks.map(inRef), ttlMs);
            return lost.flatMap((ref) => {
              const tenant = scope.outer(ref.tenant);
              return tenant === undefined ? [] : [{ tenant, taskId: ref.taskId }];
            });
          },
        }
      : {}),
    // The store reads this agent's partition only: a limited read filtered afterwards would
    // starve an agent behind more than `limit` abandoned tasks of the others.
    ...(abandoned
      ? { abandoned: async (query: AbandonedQuery) => (await abandoned({ ...query, tenants: scope.partition() })).flatMap((t) => out(t) ?? []) }
      : {}),
    ...(admitNewTask ? { admitNewTask: (tenant: string, bytes: number) => admitNewTask(scope.inner(tenant), bytes) } : {}),
  };
}

function scopedPushConfigStore(store: PushConfigStore, scope: AgentScope): PushConfigStore {
  const mayHaveConfigs = store.mayHaveConfigs?.bind(store);
  return {
    put: (tenant, config) => store.put(scope.inner(tenant), config),
    get: (tenant, taskId, id) => store.get(scope.inner(tenant), taskId, id),
    list: (tenant, taskId) => store.list(scope.inner(tenant), taskId),
    delete: (tenant, taskId, id) => store.delete(scope.inner(tenant), taskId, id),
    deleteAll: (tenant, taskId) => store.deleteAll(scope.inner(tenant), taskId),
    ...(mayHaveConfigs ? { mayHaveConfigs: (tenant: string, taskId: string) => mayHaveConfigs(scope.inner(tenant), taskId) } : {}),
  };
}

function scopedIdempotencyStore(store: IdempotencyStore, scope: AgentScope): IdempotencyStore {
  const inKey = (key: SendKey): SendKey => ({ ...key, tenant: scope.inner(key.tenant) });
  return {
    claim: (key, fingerprint, now, expiresAt) => store.claim(inKey(key), fingerprint, now, expiresAt),
    record: (key, fingerprint, outcome, expiresAt) => store.record(inKey(key), fingerprint, outcome, expiresAt),
    release: (key, fingerprint) => store.release(inKey(key), fingerprint),
  };
}

/** The log with every key moved into the agent's partition; the optional methods stay optional. */
function scopedEventLog(log: EventLog, scope: AgentScope): EventLog {
  if (scope.agentId === undefined) return log;
  const k = (key: string) => scope.logKey(key);
  const { appendMany, addWaiter, removeWaiter, isFollowed, follow } = log;
  return {
    append: (key, event, seq) => log.append(k(key), event, seq),
    readAfter: (key, afterSeq, max) => log.readAfter(k(key), afterSeq, max),
    lastSeq: (key) => log.lastSeq(k(key)),
    waitFor: (key, afterSeq, signal) => log.waitFor(k(key), afterSeq, signal),
    seal: (key, options) => log.seal(k(key), options),
    ...(appendMany
      ? {
          appendMany: (key: string, events: readonly LoggedEvent[], options?: { readonly seal?: SealOptions }) => appendMany.call(log, k(key), events, options),
        }
      : {}),
    ...(addWaiter ? { addWaiter: (key: string, afterSeq: number, wake: () => void) => addWaiter.call(log, k(key), afterSeq, wake) } : {}),
    ...(removeWaiter ? { removeWaiter: (key: string, wake: () => void) => removeWaiter.call(log, k(key), wake) } : {}),
    ...(isFollowed ? { isFollowed: (key: string) => isFollowed.call(log, k(key)) } : {}),
    ...(follow ? { follow: (key: string) => follow.call(log, k(key)) } : {}),
  };
}

/** Signals published with the agent's stored tenant; each agent hears only its own. */
function scopedSignals(signals: TaskSignals, scope: AgentScope): TaskSignals {
  return {
    publish: (signal) => signals.publish({ ...signal, tenant: scope.inner(signal.tenant) }),
    subscribe: (listener) =>
      signals.subscribe((signal: TaskSignal) => {
        const tenant = scope.outer(signal.tenant);
        if (tenant !== undefined) listener({ ...signal, tenant });
      }),
  };
}

function scopedCluster(cluster: ClusterOptions, scope: AgentScope): ClusterOptions {
  return cluster.signals ? { ...cluster, signals: scopedSignals(cluster.signals, scope) } : cluster;
}
