/**
 * The shapes of the executor configuration, derived from THE schema (`schema/config-file.ts`):
 * the fully resolved {@link ExecutorConfig} every other module reads (defaults filled in), and
 * {@link ExecutorConfigInput}, what a `startExecutor` caller or a config file gives. A key
 * added to the schema appears here by itself; its documentation is its `.describe()` text.
 * Types only, no code.
 */
import type { z } from 'zod';
import type { a2aLiteSchema, skillSchema } from './schema/agent.js';
import type { configFileSchema } from './schema/config-file.js';

/** `T` with every property, array and map readonly at any depth: a resolved configuration is never changed. */
export type DeepReadonly<T> = T extends (...args: never[]) => unknown
  ? T
  : T extends readonly (infer E)[]
    ? readonly DeepReadonly<E>[]
    : T extends object
      ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
      : T;

type Resolved = z.output<typeof configFileSchema>;

/**
 * The whole service configuration, fully resolved. Built by `loadConfig` from defaults, a
 * JSON file, environment variables and CLI flags, in that order of precedence, so one binary
 * serves a laptop demo and a proxied production deployment without code changes. `agents`
 * entries carry their per-entry defaults (`withAgentDefaults`).
 */
export type ExecutorConfig = DeepReadonly<Omit<Resolved, '$schema' | 'agents'>> & { readonly agents: readonly AgentEntryConfig[] };

/** A partial configuration as a config file or a `startExecutor` caller writes it (before checks and defaults). */
export type ExecutorConfigInput = DeepReadonly<Omit<z.input<typeof configFileSchema>, '$schema'>>;

/**
 * One checked layer (a config file, the environment, the flags, a `startExecutor` argument):
 * what it sets, checked and normalised, relative paths resolved; nothing filled in.
 */
export type ConfigLayer = DeepReadonly<Omit<DeepPartialSections<Resolved>, '$schema'>>;

/** Sections partial at any depth; leaves, lists and maps whole. */
type DeepPartialSections<T> = { [K in keyof T]?: T[K] extends readonly unknown[] ? T[K] : T[K] extends object ? DeepPartialSections<T[K]> : T[K] };

/** Log levels of the executor's pino logger (`logLevel`, `LOG_LEVEL`, `--log-level`). */
export type LogLevel = ExecutorConfig['logLevel'];
/** How log lines are written (`logFormat`): `pretty` for a person at a terminal, `json` for a collector. */
export type LogFormat = NonNullable<ExecutorConfig['logFormat']>;
/** The single agent's card fields (`agent`). */
export type AgentCardConfig = ExecutorConfig['agent'];
/** One skill of a card. */
export type SkillConfig = DeepReadonly<z.output<typeof skillSchema>>;
/** An agent's A2A-Lite options (`agents[i].a2aLite`). */
export type A2ALiteConfig = DeepReadonly<z.output<typeof a2aLiteSchema>>;
/** Who may call: API keys and/or OAuth2/OIDC JWTs. Neither configured ⇒ authentication off. */
export type AuthConfig = ExecutorConfig['auth'];
/** Request budgets per client address and identity. */
export type RateLimitConfig = ExecutorConfig['rateLimit'];
/** HTTPS/WSS and gRPC TLS; with a client CA, mutual TLS on gRPC. */
export type TlsConfig = ExecutorConfig['tls'];
/** Which browser pages besides the service's own may call it. */
export type CorsConfig = ExecutorConfig['cors'];
/** The key the agent cards are signed with. */
export type CardSigningConfig = ExecutorConfig['cardSigning'];
/** Protocol versions served beyond 1.0 and 0.3. */
export type ProtocolConfig = ExecutorConfig['protocol'];
/** Where tasks and push configs live. */
export type StoreConfig = ExecutorConfig['store'];
/** Where task events are logged for streams and resumes. */
export type EventLogConfig = ExecutorConfig['eventLog'];
/** Leases of running tasks (durable stores only). */
export type LeaseConfig = ExecutorConfig['lease'];
/** Agents read from PostgreSQL while the service runs. */
export type AgentRegistryConfig = ExecutorConfig['agentRegistry'];

/**
 * An entry of `agents` once resolved. Its defaults depend on the entry itself (the name
 * defaults to the id, the input modes to what its handler reads), so `withAgentDefaults` in
 * `merge.ts` computes them.
 */
export interface AgentEntryConfig extends AgentCardConfig {
  /** URL segment of `/agents/{id}/...`. */
  readonly id: string;
  /** A handler name: a built-in bridge, `demo`, `module`, or one a `startExecutor` caller registered. */
  readonly handler: string;
  /** The handler's settings for this agent (highest precedence; the handler's own schema checks them). */
  readonly settings: Readonly<Record<string, unknown>>;
  /** false: a task follows the call that started it (a caller that leaves cancels it). */
  readonly backgroundExecution: boolean;
  /** With the run queue: a task whose worker stopped is run again on another worker instead of failed. */
  readonly retryable: boolean;
  /** Read A2A-Lite tags in incoming text and tag the answers for chat-channel peers. */
  readonly a2aLite?: A2ALiteConfig;
  /** This agent's own authentication, instead of the service-level `auth`. */
  readonly auth?: AuthConfig;
  /** This agent's own request budgets, on top of the service-level `rateLimit`. */
  readonly rateLimit?: RateLimitConfig;
  /** Most runs this agent executes at once (per instance). */
  readonly maxConcurrentTasks?: number;
  /** Most runs one identity executes at once on this agent (per instance). */
  readonly maxConcurrentTasksPerIdentity?: number;
}
