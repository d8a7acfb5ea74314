/**
 * The agent sections of the configuration: the card fields of `agent`, and the entries of
 * `agents` (one agent each, served through a handler). Types only, no code.
 */

/** One skill as written in configuration (every list optional). */
export interface SkillConfig {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly tags?: readonly string[];
  readonly examples?: readonly string[];
  readonly inputModes?: readonly string[];
  readonly outputModes?: readonly string[];
}

/** The agent-card fields an operator configures; the server adds the interfaces (URLs). */
export interface AgentCardConfig {
  readonly name: string;
  readonly description: string;
  readonly version: string;
  readonly provider?: { readonly organization: string; readonly url: string };
  readonly documentationUrl?: string;
  readonly iconUrl?: string;
  readonly skills: readonly SkillConfig[];
  readonly capabilities: {
    readonly streaming: boolean;
    readonly pushNotifications: boolean;
    readonly extendedAgentCard: boolean;
  };
  /**
   * Media types the agent accepts (with `skills[].inputModes`): a message with a part of another
   * type is refused with ContentTypeNotSupported before the agent runs, unless
   * {@link acceptAnyInputMode}.
   */
  readonly defaultInputModes: readonly string[];
  readonly defaultOutputModes: readonly string[];
  /**
   * Let parts of every media type reach the agent, whatever its input modes say (an agent that
   * sorts out what it gets itself). Default false. Not a card field: the card still lists the
   * modes the agent prefers.
   */
  readonly acceptAnyInputMode: boolean;
}

/**
 * One agent served through a handler (a framework bridge, `demo` or `module`): its id (the
 * URL segment of `/agents/{id}/...`), the card fields (flat, as in `agent`), the handler's
 * name and the agent's own settings for it (highest precedence; see the README).
 */
export interface AgentEntryConfig extends AgentCardConfig {
  readonly id: string;
  readonly handler: string;
  readonly settings: Readonly<Record<string, unknown>>;
  /**
   * Whether the agent's tasks may outlive the call that started them (default true). false is
   * OpenClaw.NET's run mode: a send's task is canceled when its client disconnects or cancels
   * the call, and `returnImmediately` (v0.3 `blocking: false`) is refused.
   */
  readonly backgroundExecution: boolean;
  /**
   * A2A-Lite on this agent: `[A2A:…]` tags in incoming text map to task operations and the
   * agent's answers to Lite peers are tagged. Undefined: off.
   */
  readonly a2aLite?: A2ALiteConfig;
}

/** A2A-Lite options of one agent (`"a2aLite": true` is `{}`). */
export interface A2ALiteConfig {
  /**
   * Directory of the known-agents cache (`<principal hash>/<agent-id>.json`: the skill's
   * `known-agents/` file per peer, in a folder per caller), already resolved. Unset: the cache
   * lives in memory only.
   */
  readonly knownAgentsDir?: string;
  /** Largest `[A2A:card]` body accepted, in bytes. Default 64 KiB. */
  readonly maxCardBytes?: number;
  /** Peers the known-agents cache keeps, all callers together. Default 1000. */
  readonly maxKnownAgents?: number;
  /** Bytes of card JSON the known-agents cache keeps (memory and directory), all callers together. Default 16 MiB. */
  readonly maxKnownAgentsBytes?: number;
  /** Peers one caller (principal) keeps; more evict its own oldest. Default 100. */
  readonly maxKnownAgentsPerPrincipal?: number;
}
