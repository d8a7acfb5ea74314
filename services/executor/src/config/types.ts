/**
 * The shapes of the executor configuration: the fully resolved {@link ExecutorConfig} every
 * other module reads, and {@link ExecutorConfigInput}, the partial form each layer (config
 * file, environment, flags, `startExecutor` callers) provides. Types only, no code.
 */

import type { CardCompat } from '@a2a-polyglot/server';

/** Log levels of the executor's pino logger (`logLevel`, `LOG_LEVEL`, `--log-level`). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

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
  readonly defaultInputModes: readonly string[];
  readonly defaultOutputModes: readonly string[];
}

/** Authentication: static API keys, bearer JWTs from an identity provider, or both (either is accepted). */
export interface AuthConfig {
  /** API keys mapped to the principal each authenticates as. */
  readonly apiKeys: Readonly<Record<string, string>>;
  /** Header carrying a raw API key (`Authorization: Bearer <key>` works too). */
  readonly header: string;
  /** The identity provider's JWKS URL: set it (with `jwtIssuer` and `jwtAudience`) to accept bearer JWTs. */
  readonly jwksUrl?: string;
  /** Accepted `iss` of JWTs. */
  readonly jwtIssuer?: string;
  /** Accepted `aud` of JWTs (this agent at the provider). */
  readonly jwtAudience?: string;
  /** Clock skew tolerated on `exp` / `nbf`, seconds. Default 30. */
  readonly jwtClockToleranceSec?: number;
  /** OIDC discovery URL to declare in the card (else the card declares an HTTP bearer JWT scheme). */
  readonly openIdConnectUrl?: string;
}

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

/**
 * Rate limits (README "Rate limits"): requests per window, per client address (IPv4, or IPv6
 * /64) and per authenticated identity. Off by default (0): behind a proxy every client shares
 * the proxy's address, so a default address limit would throttle all of them together.
 */
export interface RateLimitConfig {
  /** Requests one client address may make per `addressWindowSec`; 0 turns the address limit off. */
  readonly addressPoints: number;
  readonly addressWindowSec: number;
  /** Requests one identity may make per `identityWindowSec`; 0 turns the identity limit off. */
  readonly identityPoints: number;
  readonly identityWindowSec: number;
}

/**
 * TLS on the listeners (README "TLS"): with `certFile` and `keyFile`, the HTTP listener serves
 * HTTPS (and WSS) and the gRPC listener TLS; with `clientCaFile` too, gRPC requires a client
 * certificate signed by that CA (mutual TLS).
 */
export interface TlsConfig {
  /** Server certificate chain (PEM file). */
  readonly certFile?: string;
  /** Server private key (PEM file). */
  readonly keyFile?: string;
  /** CA bundle (PEM file) gRPC client certificates must chain to: set ⇒ gRPC requires mutual TLS. */
  readonly clientCaFile?: string;
  /** A verified client certificate authenticates as its common name (beside any API keys / JWTs). Default false. */
  readonly clientCertIdentity: boolean;
}

/** Leases of running tasks (durable stores only). */
export interface LeaseConfig {
  /** A task whose instance stops renewing for this long is failed by another instance. */
  readonly ttlMs: number;
  /** How often each instance looks for such tasks. */
  readonly sweepIntervalMs: number;
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
   * Directory of the known-agents cache (`<agent-id>.json`, the skill's
   * `known-agents/` layout), already resolved. Unset: the cache lives in memory only.
   */
  readonly knownAgentsDir?: string;
}

/**
 * The whole service configuration, fully resolved. Built by {@link loadConfig} from defaults,
 * a JSON file, environment variables and CLI flags, in that order of precedence, so one
 * binary serves a laptop demo and a proxied production deployment without code changes.
 */
export interface ExecutorConfig {
  readonly host: string;
  /** 0 picks a free port (tests). */
  readonly port: number;
  /** Prefix of the A2A routes: JSON-RPC at `${basePath}/rpc`, REST under `${basePath}`. */
  readonly basePath: string;
  /** Absolute URL clients reach this service at (behind a proxy); otherwise derived per request. */
  readonly publicBaseUrl?: string;
  /** Honour `X-Forwarded-Proto/Host` when deriving URLs. Only behind a proxy you trust. */
  readonly trustProxy: boolean;
  /**
   * Port of the gRPC listener (the `lf.a2a.v1.A2AService` binding and the experimental session
   * service); `0` picks a free one, `false` turns gRPC off. Unset: {@link DEFAULT_GRPC_PORT},
   * or a free port when `port` is 0 (an ephemeral HTTP port means an ephemeral instance, and
   * two of them must not fight over 50051). Resolve it with {@link grpcListenAddress}.
   */
  readonly grpcPort?: number | false;
  /** Interface the gRPC listener binds. Unset: the same as `host`. */
  readonly grpcHost?: string;
  /**
   * The card's GRPC interface `url`, verbatim (`host:port`, or `https://host[:port]` when
   * clients must use TLS), for setups where gRPC is exposed somewhere the HTTP side cannot
   * infer (its own load balancer, another port). Unset: the public host (from
   * `publicBaseUrl`, else the request's Host) with the gRPC port.
   */
  readonly grpcPublicUrl?: string;
  /**
   * List the WebSocket binding (served at `${basePath}/ws`) in the agent card. `false` keeps
   * it out for strict card validators, which skip a card with a binding they do not know; the
   * endpoint keeps serving clients that know its URL.
   */
  readonly websocketInCard: boolean;
  /**
   * Serve the browser inspector at `/inspector`. Unset: on exactly when `host` is a loopback
   * address (a laptop), off otherwise, since the page lets anyone who reaches it call the
   * agent with the credentials they type. Resolve it with {@link inspectorEnabled}.
   */
  readonly inspector?: boolean;
  readonly maxBodyBytes: number;
  /**
   * Reject request members the A2A request message does not have (INVALID_PARAMS / 400)
   * instead of ignoring them. Default false: the spec says a receiver SHOULD ignore unknown
   * fields, so clients on a newer protocol version keep working. Turn on to catch client bugs.
   */
  readonly strictRequests: boolean;
  /**
   * Which agent card a discovery request without `A2A-Version` gets: `merged` (v1.0 card plus
   * the v0.3 top-level members, so clients of both generations resolve it unconfigured), `1.0`
   * (pure, for strict v1.0 validators) or `0.3`. A request naming a version gets that one's card.
   */
  readonly cardCompat: CardCompat;
  /** SSE keep-alive comment interval; 0 disables it. */
  readonly sseHeartbeatMs: number;
  /**
   * How long an SSE, gRPC or WebSocket stream may stay blocked on a client that stopped
   * reading before the server ends it (the task continues; the client can resume). 0 disables.
   */
  readonly streamStallTimeoutMs: number;
  /** The most bytes of task JSON one ListTasks page carries (a page ends early past it). */
  readonly listTasksMaxBytes: number;
  /** How long running tasks may finish on SIGINT/SIGTERM before they are failed. */
  readonly shutdownGraceMs: number;
  readonly logLevel: LogLevel;
  readonly agent: AgentCardConfig;
  /**
   * Module exporting your AgentExecutor. Relative paths are already resolved (against the
   * config file's directory when set there, against the working directory otherwise); bare
   * names are package specifiers. Unset ⇒ the built-in demo agent.
   */
  readonly agentModule?: string;
  /** Settings of the built-in demo agent. */
  readonly demo: { readonly chunkDelayMs: number };
  /**
   * Agents served through handlers, each under `/agents/{id}/...`. Empty ⇒ the single agent
   * above (`agent`, `agentModule` or the demo), exactly as without this key.
   */
  readonly agents: readonly AgentEntryConfig[];
  /** Service-wide settings per handler name (below each agent's own `settings`). */
  readonly handlers: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Id of the agent also served at the root paths; default the first of `agents`. */
  readonly defaultAgent?: string;
  /** Agents read from PostgreSQL while the service runs (needs at least one entry in `agents`: the default one). */
  readonly agentRegistry: AgentRegistryConfig;
  /** Who may call: API keys and/or OAuth2/OIDC JWTs. Neither configured ⇒ authentication off. */
  readonly auth: AuthConfig;
  readonly push: { readonly allowPrivateNetworks: boolean };
  readonly store: StoreConfig;
  readonly eventLog: EventLogConfig;
  /** This instance's id (lease owner). Unset: the host name for SQLite, host name + pid + random for PostgreSQL and DynamoDB. */
  readonly instanceId?: string;
  readonly lease: LeaseConfig;
  readonly rateLimit: RateLimitConfig;
  readonly tls: TlsConfig;
}

/** A partial configuration: what a config file, `startExecutor` callers and overrides provide. */
export type ExecutorConfigInput = {
  readonly [K in keyof ExecutorConfig]?: ExecutorConfig[K] extends string | number | boolean | undefined
    ? ExecutorConfig[K]
    : K extends 'agent'
      ? AgentCardInput
      : K extends 'agents'
        ? ReadonlyArray<
            AgentCardInput & {
              readonly id: string;
              readonly handler: string;
              readonly settings?: Readonly<Record<string, unknown>>;
              readonly backgroundExecution?: boolean;
              readonly a2aLite?: boolean | A2ALiteConfig;
            }
          >
        : Partial<ExecutorConfig[K]>;
};

/** Card fields as a layer provides them (every one optional). */
type AgentCardInput = Partial<Omit<AgentCardConfig, 'capabilities'>> & { readonly capabilities?: Partial<AgentCardConfig['capabilities']> };
