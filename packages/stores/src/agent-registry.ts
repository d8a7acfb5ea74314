/**
 * What every agent registry backend shares (PostgreSQL `a2a_agents`, DynamoDB `["a2a-agents"]`
 * items): the row a gateway serves an agent from, and the read / watch surface the executor
 * uses whatever the backend. Loads no driver.
 */

/** One row of an agent registry: what a gateway needs to serve an agent. */
export interface AgentRow {
  readonly id: string;
  /** The handler (bridge) name, e.g. `hermes-runs`, `demo`, `module`. */
  readonly handler: string;
  /** The agent's own handler settings (highest precedence layer). */
  readonly settings: Record<string, unknown>;
  /**
   * Card fields (`name`, `description`, `skills`, `capabilities`, ...), as in a config file's
   * `agents` entry. `{}` when {@link cardBytes} is over the `maxCardBytes` given to `list`: such
   * a card is not parsed.
   */
  readonly card: Record<string, unknown>;
  /** Size of the card as stored, in bytes of its JSON text. */
  readonly cardBytes: number;
  /** A disabled row is kept but not served. */
  readonly enabled: boolean;
  /** When the row last changed (ISO 8601): a changed row is served anew. */
  readonly updatedAt: string;
}

/** A running {@link AgentRegistrySource.watch}. */
export interface AgentRegistryWatch {
  /** Stops watching; resolves once whatever the watch held (a connection, a timer) is released. */
  close(): Promise<void>;
}

/** Options of {@link AgentRegistrySource.list}. */
export interface AgentRegistryListOptions {
  /** Largest card read, in bytes of its JSON text; a larger one comes back as `{}` with its `cardBytes`. Unset: every card is read. */
  readonly maxCardBytes?: number;
}

/**
 * An agent registry backend: reads every row, and says when they may have changed. How it
 * learns of changes (PostgreSQL: LISTEN/NOTIFY plus a resync; DynamoDB: polling) and how often
 * is the backend's own setting, given to its constructor.
 */
export interface AgentRegistrySource {
  /** Every row, enabled or not, by id. */
  list(options?: AgentRegistryListOptions): Promise<AgentRow[]>;
  /**
   * Calls `onChange` (with what prompted it) whenever the rows may have changed. `onChange`
   * re-reads with {@link list}; calls may come close together, so it should coalesce them.
   */
  watch(onChange: (why: string) => void): AgentRegistryWatch;
}
