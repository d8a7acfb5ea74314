/**
 * The storage sections of the configuration: the task store (`store`), the event log
 * (`eventLog`), the leases of running tasks (`lease`) and the agent registry
 * (`agentRegistry`). Types only, no code.
 */

/** Where tasks and push configs live: see README "Durable tasks and several instances". */
export interface StoreConfig {
  /** Unset: `postgres` when `url` is set, `sqlite` when `path` is set, `dynamodb` when `table` is set, else `memory`. */
  readonly kind?: 'memory' | 'sqlite' | 'postgres' | 'dynamodb';
  /** SQLite file (resolved like `agentModule`). Default `a2a-tasks.db` in the working directory. */
  readonly path?: string;
  /** PostgreSQL URL. */
  readonly url?: string;
  /** PostgreSQL schema holding the tables. */
  readonly schema: string;
  /** Most PostgreSQL connections per instance. */
  readonly maxConnections: number;
  /** DynamoDB table (created with its indexes at startup when missing). */
  readonly table?: string;
  /** DynamoDB endpoint URL (DynamoDB Local, a VPC endpoint). Unset: the region's AWS endpoint. */
  readonly endpoint?: string;
  /** AWS region of the table. Unset: the AWS SDK's own resolution (`AWS_REGION`, shared config). */
  readonly region?: string;
  /** DynamoDB: how long a finished task is kept (TTL attribute); 0 keeps finished tasks forever. */
  readonly retentionMs: number;
  /**
   * In-memory store: most estimated bytes of tasks held (finished tasks are evicted first,
   * then interrupted ones; a new task is refused while running tasks alone fill it).
   */
  readonly memoryMaxBytes: number;
  /** In-memory store: an input-required / auth-required task idle this long is dropped; 0 never. */
  readonly memoryInterruptedIdleMs: number;
}

/**
 * Agents kept in a PostgreSQL table (`a2a_agents`) besides `agents`: see README "Agent
 * registry in PostgreSQL". Changes reach every instance through LISTEN/NOTIFY, with a
 * periodic full resync as the fallback.
 */
export interface AgentRegistryConfig {
  /** Only `postgres` for now; unset means `postgres` when `url` is set, else no registry. */
  readonly kind?: 'postgres';
  /** PostgreSQL URL of the registry. Unset: no registry. */
  readonly url?: string;
  /** Schema holding `a2a_agents` (created by the migrations). */
  readonly schema: string;
  /** How often every row is re-read, in case a notification was missed; 0 disables. */
  readonly resyncMs: number;
  /**
   * Absolute directories a row of handler `module` may load its file from (after symlinks are
   * resolved). A table row can name any path, and a module runs in the service's process, so
   * module rows are refused unless their file lies in one of these or their package is in
   * {@link modulePackages}. Empty (the default): no module rows.
   */
  readonly moduleDirs: readonly string[];
  /** Package names a row of handler `module` may name, matched exactly (a subpath must be listed itself). */
  readonly modulePackages: readonly string[];
  /** How long building one row (module import and factory included) may take before its agent answers Unavailable. */
  readonly loadTimeoutMs: number;
  /** Largest `card` of a row, in bytes of its JSON text; a larger card is not read and its agent answers Unavailable. */
  readonly maxCardBytes: number;
}

/** Where task events are logged for streams and resumes. */
export interface EventLogConfig {
  /** Unset: `redis` when `url` is set, else `memory`. */
  readonly kind?: 'memory' | 'redis';
  /** Redis URL. */
  readonly url?: string;
  /** Prefix of every Redis key and channel (several deployments on one Redis). */
  readonly prefix: string;
  /** How long a finished task's events stay readable for resumes. */
  readonly retentionMs: number;
  /** Events kept per task; a reader further behind resyncs from a snapshot. */
  readonly maxEventsPerTask: number;
}

/** Leases of running tasks (durable stores only). */
export interface LeaseConfig {
  /** A task whose instance stops renewing for this long is failed by another instance. */
  readonly ttlMs: number;
  /** How often each instance looks for such tasks. */
  readonly sweepIntervalMs: number;
}
