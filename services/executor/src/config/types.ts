/**
 * The shapes of the executor configuration: the fully resolved {@link ExecutorConfig} every
 * other module reads, and {@link ExecutorConfigInput}, the partial form each layer (config
 * file, environment, flags, `startExecutor` callers) provides. The sections are typed by
 * topic in `agent-types.ts`, `security-types.ts` and `storage-types.ts`; this module stays
 * the one import path for all of them. Types only, no code.
 */

import type { CardCompat } from '@a2a-polyglot/server';
import type { A2ALiteConfig, AgentCardConfig, AgentEntryConfig } from './agent-types.js';
import type { AuthConfig, CardSigningConfig, CorsConfig, ProtocolConfig, RateLimitConfig, TlsConfig } from './security-types.js';
import type { AgentRegistryConfig, EventLogConfig, LeaseConfig, StoreConfig } from './storage-types.js';

export type { A2ALiteConfig, AgentCardConfig, AgentEntryConfig, SkillConfig } from './agent-types.js';
export type { AuthConfig, CardSigningConfig, CorsConfig, ProtocolConfig, RateLimitConfig, TlsConfig } from './security-types.js';
export type { AgentRegistryConfig, EventLogConfig, LeaseConfig, StoreConfig } from './storage-types.js';

/** Log levels of the executor's pino logger (`logLevel`, `LOG_LEVEL`, `--log-level`). */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

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
  /** Which browser pages besides the service's own (the inspector) may call it (README "Browsers"). */
  readonly cors: CorsConfig;
  /**
   * Host names requests may carry besides IP addresses, `localhost` (and `*.localhost`) and the
   * host of `publicBaseUrl`; `.example.com` covers a domain and its subdomains, `*` any host.
   * Others get 403 (DNS rebinding). Unset: only requests that arrive on a loopback address are
   * checked; set (even to `[]`) to check every request (README "Browsers").
   */
  readonly allowedHosts?: readonly string[];
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
  /**
   * How long a send is remembered by (principal, tenant, messageId): a retry within it answers
   * the first send's task or reply instead of running the agent again. 0 disables.
   */
  readonly idempotencyWindowMs: number;
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
  /**
   * Webhook rules. `secretKey`: encrypts push-config secrets at rest in the durable stores
   * (32 bytes, base64 or hex); unset, they are stored as given.
   */
  readonly push: { readonly allowPrivateNetworks: boolean; readonly secretKey?: string };
  readonly store: StoreConfig;
  readonly eventLog: EventLogConfig;
  /** This instance's id (lease owner). Unset: the host name for SQLite, host name + pid + random for PostgreSQL and DynamoDB. */
  readonly instanceId?: string;
  readonly lease: LeaseConfig;
  readonly rateLimit: RateLimitConfig;
  readonly tls: TlsConfig;
  /** The key the agent cards are signed with; no key ⇒ unsigned cards. */
  readonly cardSigning: CardSigningConfig;
  /** Protocol versions served beyond 1.0 and 0.3: the experimental A2A 1.1 draft. */
  readonly protocol: ProtocolConfig;
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
        : ExecutorConfig[K] extends readonly unknown[] | undefined
          ? ExecutorConfig[K]
          : Partial<ExecutorConfig[K]>;
};

/** Card fields as a layer provides them (every one optional). */
type AgentCardInput = Partial<Omit<AgentCardConfig, 'capabilities'>> & { readonly capabilities?: Partial<AgentCardConfig['capabilities']> };
