import { existsSync, readFileSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';

/** Log levels understood by `consoleLogger`. */
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

/** Where tasks and push configs live: see README "Durable tasks and several instances". */
export interface StoreConfig {
  /** Unset: `postgres` when `url` is set, `sqlite` when `path` is set, else `memory`. */
  readonly kind?: 'memory' | 'sqlite' | 'postgres';
  /** SQLite file (resolved like `agentModule`). Default `a2a-tasks.db` in the working directory. */
  readonly path?: string;
  /** PostgreSQL URL. */
  readonly url?: string;
  /** PostgreSQL schema holding the tables. */
  readonly schema: string;
  /** Most PostgreSQL connections per instance. */
  readonly maxConnections: number;
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

/**
 * One agent served through a handler (a framework bridge, `demo` or `module`): its id (the
 * URL segment of `/agents/{id}/...`), the card fields (flat, as in `agent`), the handler's
 * name and the agent's own settings for it (highest precedence; see the README).
 */
export interface AgentEntryConfig extends AgentCardConfig {
  readonly id: string;
  readonly handler: string;
  readonly settings: Readonly<Record<string, unknown>>;
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
  readonly maxBodyBytes: number;
  /** SSE keep-alive comment interval; 0 disables it. */
  readonly sseHeartbeatMs: number;
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
  /** API keys mapped to the principal each authenticates as. Empty ⇒ authentication off. */
  readonly auth: { readonly apiKeys: Readonly<Record<string, string>>; readonly header: string };
  readonly push: { readonly allowPrivateNetworks: boolean };
  readonly store: StoreConfig;
  readonly eventLog: EventLogConfig;
  /** This instance's id (lease owner). Unset: the host name for SQLite, host name + pid + random for PostgreSQL. */
  readonly instanceId?: string;
  readonly lease: LeaseConfig;
}

/** A partial configuration: what a config file, `startExecutor` callers and overrides provide. */
export type ExecutorConfigInput = {
  readonly [K in keyof ExecutorConfig]?: ExecutorConfig[K] extends string | number | boolean | undefined
    ? ExecutorConfig[K]
    : K extends 'agent'
      ? AgentCardInput
      : K extends 'agents'
        ? ReadonlyArray<AgentCardInput & { readonly id: string; readonly handler: string; readonly settings?: Readonly<Record<string, unknown>> }>
        : Partial<ExecutorConfig[K]>;
};

/** Card fields as a layer provides them (every one optional). */
type AgentCardInput = Partial<Omit<AgentCardConfig, 'capabilities'>> & { readonly capabilities?: Partial<AgentCardConfig['capabilities']> };

/**
 * A configuration problem. Its message is one line that names the offending key and where it
 * came from, so `main` can print it and exit without a stack trace.
 */
export class ConfigError extends Error {
  /** For a bad value: what was expected and what came (`must be … (got …)`), without the key. */
  readonly detail?: string;
  constructor(message: string, detail?: string) {
    super(message);
    this.name = 'ConfigError';
    this.detail = detail;
  }
}

/** The gRPC port when none is configured (the conventional gRPC port, as in `@a2a-polyglot/grpc`). */
export const DEFAULT_GRPC_PORT = 50051;

/**
 * Where the gRPC listener binds, or undefined when gRPC is off: `grpcHost` (default `host`)
 * and `grpcPort` (default {@link DEFAULT_GRPC_PORT}, or 0 when `port` is 0).
 */
export function grpcListenAddress(config: Pick<ExecutorConfig, 'host' | 'port' | 'grpcHost' | 'grpcPort'>): { host: string; port: number } | undefined {
  if (config.grpcPort === false) return undefined;
  return { host: config.grpcHost ?? config.host, port: config.grpcPort ?? (config.port === 0 ? 0 : DEFAULT_GRPC_PORT) };
}

/** The built-in defaults (lowest precedence). */
export function defaultConfig(): ExecutorConfig {
  return {
    host: '127.0.0.1',
    port: 8080,
    basePath: '/a2a',
    publicBaseUrl: undefined,
    trustProxy: false,
    grpcPort: undefined,
    grpcHost: undefined,
    grpcPublicUrl: undefined,
    maxBodyBytes: 4 * 1024 * 1024,
    sseHeartbeatMs: 15_000,
    shutdownGraceMs: 10_000,
    logLevel: 'info',
    agent: {
      name: 'A2A Polyglot Demo Agent',
      description: 'Echoes your message back as a streamed artifact. Try "ask", "fail" or "slow" to explore the protocol.',
      version: '0.1.0',
      provider: undefined,
      skills: [
        {
          id: 'echo',
          name: 'Echo',
          description: 'Streams "Echo: <your text>" back in chunks of a few words.',
          tags: ['demo', 'echo'],
          examples: ['hello world', 'ask', 'fail', 'slow'],
        },
      ],
      capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: false },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
    },
    agentModule: undefined,
    demo: { chunkDelayMs: 50 },
    agents: [],
    handlers: {},
    defaultAgent: undefined,
    auth: { apiKeys: {}, header: 'x-api-key' },
    push: { allowPrivateNetworks: false },
    store: { kind: undefined, path: undefined, url: undefined, schema: 'public', maxConnections: 10 },
    eventLog: { kind: undefined, url: undefined, prefix: 'a2a', retentionMs: 5 * 60_000, maxEventsPerTask: 4096 },
    instanceId: undefined,
    lease: { ttlMs: 30_000, sweepIntervalMs: 10_000 },
  };
}

// ------------------------------------------------------------------ value checks

type Check<T> = (value: unknown, where: string) => T;

/** Marks a value that must not be echoed in messages (API keys). */
const SECRET = Symbol('secret');

function fail(where: string, expectation: string, value: unknown): never {
  const got = value === SECRET ? 'the value is not shown: it holds API keys' : `got ${JSON.stringify(value) ?? String(value)}`;
  const detail = `must be ${expectation} (${got})`;
  throw new ConfigError(`Invalid configuration: ${where} ${detail}`, detail);
}

const str: Check<string> = (v, where) => (typeof v === 'string' ? v : fail(where, 'a string', v));
const nonEmpty: Check<string> = (v, where) => (typeof v === 'string' && v.trim() !== '' ? v : fail(where, 'a non-empty string', v));
const bool: Check<boolean> = (v, where) => (typeof v === 'boolean' ? v : fail(where, 'true or false', v));
const strings: Check<string[]> = (v, where) =>
  Array.isArray(v) && v.every((s) => typeof s === 'string') ? [...(v as string[])] : fail(where, 'an array of strings', v);
const intIn =
  (min: number, max: number): Check<number> =>
  (v, where) =>
    typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max ? v : fail(where, `an integer between ${min} and ${max}`, v);
const port = intIn(0, 65535);
const nonNegativeMs = intIn(0, 24 * 60 * 60 * 1000);
const positiveBytes = intIn(1, 1024 * 1024 * 1024);
const logLevel: Check<LogLevel> = (v, where) =>
  v === 'debug' || v === 'info' || v === 'warn' || v === 'error' ? v : fail(where, 'one of debug, info, warn, error', v);

const PORT_OR_OFF = 'a port between 0 and 65535, or off / false / -1 to disable gRPC';

/** A port, or `false` / `-1` / `"off"` for "gRPC off" (env and flag text `false` arrives here as `false`). */
const portOrOff: Check<number | false> = (v, where) => {
  if (v === false || v === -1 || v === 'off') return false;
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= 65535 ? v : fail(where, PORT_OR_OFF, v);
};

/** The card's GRPC url: `host:port` (IPv6 in brackets), or an absolute URL without path, query or fragment. */
const grpcPublicUrl: Check<string> = (v, where) => {
  const expected = 'host:port (e.g. "agents.example.com:443") or a URL such as "https://agents.example.com"';
  if (typeof v !== 'string' || /\s/.test(v) || v === '') fail(where, expected, v);
  if (/^([^\s/:[\]]+|\[[0-9A-Fa-f:.]+\]):\d{1,5}$/.test(v) && Number(v.slice(v.lastIndexOf(':') + 1)) <= 65535) return v;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    fail(where, expected, v);
  }
  if (!['http:', 'https:', 'grpc:', 'grpcs:'].includes(url.protocol) || !url.hostname || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) fail(where, expected, v);
  return v.replace(/\/+$/, '');
};

const basePath: Check<string> = (v, where) => {
  if (typeof v !== 'string' || !/^(\/[A-Za-z0-9._~!$&'()*+,;=:@%-]+)*\/?$/.test(v)) fail(where, 'a URL path such as "/a2a" (or "/" for the root)', v);
  return v.replace(/\/+$/, '');
};

const absoluteUrl: Check<string> = (v, where) => {
  if (typeof v !== 'string') fail(where, 'an absolute http(s) URL', v);
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    fail(where, 'an absolute http(s) URL', v);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail(where, 'an absolute http(s) URL', v);
  if (url.search || url.hash) fail(where, 'a URL without query or fragment', v);
  return v.replace(/\/+$/, '');
};

function record(v: unknown, where: string): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : fail(where, 'an object', v);
}

/** Rejects keys we do not know: a typo in a config file should not silently do nothing. */
function knownKeys(obj: Record<string, unknown>, allowed: readonly string[], where: string): void {
  // `where` is "<source>: <path>" (source optional), e.g. "config file x.json: agent".
  const cut = where.lastIndexOf(': ') + 1;
  const source = where.slice(0, cut).trim();
  const path = where.slice(cut).trim();
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) {
      throw new ConfigError(`Invalid configuration: ${source ? `${source} ` : ''}unknown key ${path ? `${path}.` : ''}${key} (known: ${allowed.join(', ')})`);
    }
  }
}

const apiKeys: Check<Record<string, string>> = (v, where) => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(where, 'an object mapping API keys to principal ids', SECRET);
  const obj = v as Record<string, unknown>;
  const out: Record<string, string> = {};
  for (const [key, principal] of Object.entries(obj)) {
    if (key.trim() === '') fail(where, 'a map of non-empty API keys to principal ids', SECRET);
    if (typeof principal !== 'string' || principal.trim() === '') fail(where, 'a map of API keys to non-empty principal ids', SECRET);
    out[key] = principal;
  }
  return out;
};

// ------------------------------------------------------------------ layers

/**
 * Validates one layer (a config file's JSON, or a `startExecutor` argument) and returns it as
 * a typed partial. `source` prefixes every key in error messages (e.g. `config file x.json:`).
 */
export function parseConfigInput(raw: unknown, source: string, baseDir?: string): ExecutorConfigInput {
  const at = (key: string) => `${source}${key}`;
  const obj = record(raw, source.replace(/[: ]+$/, '') || 'configuration');
  knownKeys(obj, ['$schema', 'host', 'port', 'basePath', 'publicBaseUrl', 'trustProxy', 'grpcPort', 'grpcHost', 'grpcPublicUrl', 'maxBodyBytes', 'sseHeartbeatMs', 'shutdownGraceMs', 'logLevel', 'agent', 'agentModule', 'demo', 'agents', 'handlers', 'defaultAgent', 'auth', 'push', 'store', 'eventLog', 'instanceId', 'lease'], source);
  const out: Record<string, unknown> = {};
  const take = <T>(key: string, check: Check<T>) => {
    if (obj[key] !== undefined) out[key] = check(obj[key], at(key));
  };
  take('host', nonEmpty);
  take('port', port);
  take('basePath', basePath);
  take('publicBaseUrl', absoluteUrl);
  take('trustProxy', bool);
  take('grpcPort', portOrOff);
  take('grpcHost', nonEmpty);
  take('grpcPublicUrl', grpcPublicUrl);
  take('maxBodyBytes', positiveBytes);
  take('sseHeartbeatMs', nonNegativeMs);
  take('shutdownGraceMs', nonNegativeMs);
  take('logLevel', logLevel);
  take('agentModule', (v, where) => resolveModulePath(nonEmpty(v, where), baseDir));
  if (obj.agent !== undefined) out.agent = parseAgent(obj.agent, at('agent'));
  take('defaultAgent', agentId);
  if (obj.agents !== undefined) {
    if (!Array.isArray(obj.agents)) fail(at('agents'), 'an array of agents', obj.agents);
    out.agents = obj.agents.map((a: unknown, i: number) => parseAgentEntry(a, at(`agents[${i}]`), baseDir));
  }
  if (obj.handlers !== undefined) {
    const handlers = record(obj.handlers, at('handlers'));
    out.handlers = Object.fromEntries(Object.entries(handlers).map(([name, settings]) => [name, { ...record(settings, at(`handlers.${name}`)) }]));
  }
  if (obj.demo !== undefined) {
    const demo = record(obj.demo, at('demo'));
    knownKeys(demo, ['chunkDelayMs'], at('demo'));
    out.demo = demo.chunkDelayMs === undefined ? {} : { chunkDelayMs: nonNegativeMs(demo.chunkDelayMs, at('demo.chunkDelayMs')) };
  }
  if (obj.auth !== undefined) {
    const auth = record(obj.auth, at('auth'));
    knownKeys(auth, ['apiKeys', 'header'], at('auth'));
    out.auth = {
      ...(auth.apiKeys !== undefined && { apiKeys: apiKeys(auth.apiKeys, at('auth.apiKeys')) }),
      ...(auth.header !== undefined && { header: nonEmpty(auth.header, at('auth.header')) }),
    };
  }
  if (obj.push !== undefined) {
    const push = record(obj.push, at('push'));
    knownKeys(push, ['allowPrivateNetworks'], at('push'));
    out.push = push.allowPrivateNetworks === undefined ? {} : { allowPrivateNetworks: bool(push.allowPrivateNetworks, at('push.allowPrivateNetworks')) };
  }
  take('instanceId', nonEmpty);
  const section = (key: string, checks: Record<string, Check<unknown>>) => {
    if (obj[key] === undefined) return;
    const raw = record(obj[key], at(key));
    knownKeys(raw, Object.keys(checks), at(key));
    const parsed: Record<string, unknown> = {};
    for (const [k, check] of Object.entries(checks)) if (raw[k] !== undefined) parsed[k] = check(raw[k], at(`${key}.${k}`));
    out[key] = parsed;
  };
  section('store', {
    kind: oneOf('memory', 'sqlite', 'postgres'),
    path: (v, where) => resolve(baseDir ?? process.cwd(), nonEmpty(v, where)),
    url: connectionUrl('postgres:', 'postgresql:'),
    schema: (v, where) => (typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(v) ? v : fail(where, 'a schema name (letters, digits, _)', v)),
    maxConnections: intIn(1, 1000),
  });
  section('eventLog', {
    kind: oneOf('memory', 'redis'),
    url: connectionUrl('redis:', 'rediss:'),
    prefix: nonEmpty,
    retentionMs: nonNegativeMs,
    maxEventsPerTask: intIn(1, 1_000_000),
  });
  section('lease', { ttlMs: intIn(100, 24 * 60 * 60 * 1000), sweepIntervalMs: intIn(10, 24 * 60 * 60 * 1000) });
  return out as ExecutorConfigInput;
}

function oneOf<T extends string>(...values: T[]): Check<T> {
  return (v, where) => (values.includes(v as T) ? (v as T) : fail(where, `one of ${values.join(', ')}`, v));
}

/** A connection URL with one of `protocols`; its password never appears in messages. */
function connectionUrl(...protocols: string[]): Check<string> {
  return (v, where) => {
    let url: URL | undefined;
    try {
      url = typeof v === 'string' ? new URL(v) : undefined;
    } catch {
      url = undefined;
    }
    if (!url || !protocols.includes(url.protocol)) fail(where, `a ${protocols.map((p) => `${p}//`).join(' or ')} URL`, typeof v === 'string' ? v.replace(/\/\/[^@/]*@/, '//***@') : v);
    return v as string;
  };
}

const CARD_KEYS = ['name', 'description', 'version', 'provider', 'documentationUrl', 'iconUrl', 'skills', 'capabilities', 'defaultInputModes', 'defaultOutputModes'];

/** An agent id is a URL path segment (`/agents/{id}/...`). */
const agentId: Check<string> = (v, where) =>
  typeof v === 'string' && /^[A-Za-z0-9][A-Za-z0-9._~-]{0,63}$/.test(v) ? v : fail(where, 'an id of letters, digits, ".", "_", "~" or "-" (at most 64, not starting with a symbol)', v);

function parseAgentEntry(raw: unknown, where: string, baseDir: string | undefined): NonNullable<ExecutorConfigInput['agents']>[number] {
  const obj = record(raw, where);
  knownKeys(obj, ['id', 'handler', 'settings', ...CARD_KEYS], where);
  const { id, handler, settings, ...card } = obj;
  const parsedSettings = settings === undefined ? {} : { ...record(settings, `${where}.settings`) };
  // The module handler's path resolves like agentModule: against the config file's directory.
  if (handler === 'module' && typeof parsedSettings.path === 'string' && parsedSettings.path.trim() !== '') parsedSettings.path = resolveModulePath(parsedSettings.path, baseDir);
  return { ...parseAgent(card, where), id: agentId(id, `${where}.id`), handler: nonEmpty(handler, `${where}.handler`), settings: parsedSettings };
}

function parseAgent(raw: unknown, where: string): ExecutorConfigInput['agent'] {
  const obj = record(raw, where);
  knownKeys(obj, CARD_KEYS, where);
  const out: Record<string, unknown> = {};
  for (const key of ['name', 'description', 'version'] as const) if (obj[key] !== undefined) out[key] = nonEmpty(obj[key], `${where}.${key}`);
  for (const key of ['documentationUrl', 'iconUrl'] as const) if (obj[key] !== undefined) out[key] = absoluteUrl(obj[key], `${where}.${key}`);
  for (const key of ['defaultInputModes', 'defaultOutputModes'] as const) if (obj[key] !== undefined) out[key] = strings(obj[key], `${where}.${key}`);
  if (obj.provider !== undefined) {
    const p = record(obj.provider, `${where}.provider`);
    knownKeys(p, ['organization', 'url'], `${where}.provider`);
    out.provider = { organization: nonEmpty(p.organization, `${where}.provider.organization`), url: absoluteUrl(p.url, `${where}.provider.url`) };
  }
  if (obj.capabilities !== undefined) {
    const c = record(obj.capabilities, `${where}.capabilities`);
    knownKeys(c, ['streaming', 'pushNotifications', 'extendedAgentCard'], `${where}.capabilities`);
    const caps: Record<string, boolean> = {};
    for (const key of ['streaming', 'pushNotifications', 'extendedAgentCard']) if (c[key] !== undefined) caps[key] = bool(c[key], `${where}.capabilities.${key}`);
    out.capabilities = caps;
  }
  if (obj.skills !== undefined) {
    if (!Array.isArray(obj.skills)) fail(`${where}.skills`, 'an array of skills', obj.skills);
    out.skills = obj.skills.map((s: unknown, i: number) => parseSkill(s, `${where}.skills[${i}]`));
  }
  return out as ExecutorConfigInput['agent'];
}

function parseSkill(raw: unknown, where: string): SkillConfig {
  const s = record(raw, where);
  knownKeys(s, ['id', 'name', 'description', 'tags', 'examples', 'inputModes', 'outputModes'], where);
  return {
    id: nonEmpty(s.id, `${where}.id`),
    name: nonEmpty(s.name, `${where}.name`),
    description: str(s.description, `${where}.description`),
    ...(s.tags !== undefined && { tags: strings(s.tags, `${where}.tags`) }),
    ...(s.examples !== undefined && { examples: strings(s.examples, `${where}.examples`) }),
    ...(s.inputModes !== undefined && { inputModes: strings(s.inputModes, `${where}.inputModes`) }),
    ...(s.outputModes !== undefined && { outputModes: strings(s.outputModes, `${where}.outputModes`) }),
  };
}

/**
 * Relative module paths resolve against `baseDir`. A bare name is a path too when such a file
 * exists there (`examples/agent.js` without `./`, the way people type it); otherwise it stays
 * a package name for `require.resolve`.
 */
function resolveModulePath(spec: string, baseDir: string | undefined): string {
  if (isAbsolute(spec)) return spec;
  const path = resolve(baseDir ?? process.cwd(), spec);
  return spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..' || existsSync(path) ? path : spec;
}

/**
 * Environment variables, parsed into a partial configuration. Only the variables below are
 * read; each one that is set (and not empty) overrides the config file.
 */
export const ENV_VARS = {
  HOST: 'host',
  PORT: 'port',
  A2A_BASE_PATH: 'basePath',
  A2A_PUBLIC_BASE_URL: 'publicBaseUrl',
  A2A_TRUST_PROXY: 'trustProxy',
  GRPC_PORT: 'grpcPort',
  GRPC_HOST: 'grpcHost',
  A2A_GRPC_PUBLIC_URL: 'grpcPublicUrl',
  A2A_MAX_BODY_BYTES: 'maxBodyBytes',
  A2A_SSE_HEARTBEAT_MS: 'sseHeartbeatMs',
  A2A_SHUTDOWN_GRACE_MS: 'shutdownGraceMs',
  LOG_LEVEL: 'logLevel',
  A2A_AGENT_MODULE: 'agentModule',
  A2A_AGENT_NAME: 'agent.name',
  A2A_API_KEYS: 'auth.apiKeys',
  A2A_API_KEY_HEADER: 'auth.header',
  A2A_PUSH_ALLOW_PRIVATE_NETWORKS: 'push.allowPrivateNetworks',
  A2A_DEMO_CHUNK_DELAY_MS: 'demo.chunkDelayMs',
  A2A_STORE: 'store.kind',
  A2A_SQLITE_PATH: 'store.path',
  A2A_POSTGRES_URL: 'store.url',
  A2A_POSTGRES_SCHEMA: 'store.schema',
  A2A_POSTGRES_MAX_CONNECTIONS: 'store.maxConnections',
  A2A_EVENT_LOG: 'eventLog.kind',
  A2A_REDIS_URL: 'eventLog.url',
  A2A_REDIS_PREFIX: 'eventLog.prefix',
  A2A_EVENT_RETENTION_MS: 'eventLog.retentionMs',
  A2A_INSTANCE_ID: 'instanceId',
  A2A_LEASE_MS: 'lease.ttlMs',
  A2A_LEASE_SWEEP_MS: 'lease.sweepIntervalMs',
  A2A_DEFAULT_AGENT: 'defaultAgent',
} as const;

/** Turns `"8080"` into 8080, `"true"` into true, etc., so one checker serves files and env alike. */
function fromText(text: string, kind: TextKind, where: string): unknown {
  switch (kind) {
    case 'int':
      return /^\s*-?\d+\s*$/.test(text) ? Number(text) : fail(where, 'an integer', text);
    case 'portOrOff': {
      const t = text.trim().toLowerCase();
      if (t === 'off' || t === 'false') return false;
      return /^-?\d+$/.test(t) ? Number(t) : fail(where, PORT_OR_OFF, text);
    }
    case 'bool': {
      const t = text.trim().toLowerCase();
      if (['true', '1', 'yes', 'on'].includes(t)) return true;
      if (['false', '0', 'no', 'off'].includes(t)) return false;
      return fail(where, 'true or false', text);
    }
    case 'keys': {
      const out: Record<string, string> = {};
      for (const pair of text.split(',').map((s) => s.trim()).filter(Boolean)) {
        const eq = pair.indexOf('=');
        if (eq <= 0 || eq === pair.length - 1) fail(where, 'a list like "key1=principal1,key2=principal2"', SECRET);
        out[pair.slice(0, eq).trim()] = pair.slice(eq + 1).trim();
      }
      return out;
    }
    default:
      return text;
  }
}

type TextKind = 'int' | 'portOrOff' | 'bool' | 'string' | 'keys';

const KIND: Record<string, TextKind> = {
  port: 'int',
  grpcPort: 'portOrOff',
  maxBodyBytes: 'int',
  sseHeartbeatMs: 'int',
  shutdownGraceMs: 'int',
  'demo.chunkDelayMs': 'int',
  trustProxy: 'bool',
  'push.allowPrivateNetworks': 'bool',
  'auth.apiKeys': 'keys',
  'store.maxConnections': 'int',
  'eventLog.retentionMs': 'int',
  'eventLog.maxEventsPerTask': 'int',
  'lease.ttlMs': 'int',
  'lease.sweepIntervalMs': 'int',
};

/**
 * Builds one layer from `[dotted key, text, variable-or-flag name]` entries. Each entry is
 * checked on its own so an error names the variable or flag the operator actually typed.
 */
function layerFromText(entries: ReadonlyArray<readonly [path: string, text: string, where: string]>, baseDir: string): ExecutorConfigInput {
  let layer: ExecutorConfigInput = {};
  for (const [path, text, where] of entries) {
    const raw: Record<string, any> = {};
    const keys = path.split('.');
    let obj = raw;
    for (const k of keys.slice(0, -1)) obj = obj[k] = {};
    let parsed: ExecutorConfigInput;
    try {
      obj[keys[keys.length - 1]!] = fromText(text, KIND[path] ?? 'string', where);
      parsed = parseConfigInput(raw, '', baseDir);
    } catch (error) {
      if (error instanceof ConfigError && error.detail) throw new ConfigError(`Invalid configuration: ${where} ${error.detail}`, error.detail);
      throw error;
    }
    layer = mergeInput(layer, parsed);
  }
  return layer;
}

function mergeInput(a: ExecutorConfigInput, b: ExecutorConfigInput): ExecutorConfigInput {
  const out: Record<string, unknown> = { ...a };
  for (const [k, v] of Object.entries(b)) {
    const prev = out[k];
    out[k] = typeof v === 'object' && v !== null && !Array.isArray(v) && typeof prev === 'object' && prev !== null ? { ...prev, ...v } : v;
  }
  return out as ExecutorConfigInput;
}

/** Reads the environment layer. Empty values count as unset. */
export function configFromEnv(env: Readonly<Record<string, string | undefined>>, cwd: string): ExecutorConfigInput {
  const entries: Array<[string, string, string]> = [];
  for (const [name, path] of Object.entries(ENV_VARS)) {
    const text = env[name];
    if (text !== undefined && text !== '') entries.push([path, text, name]);
  }
  return layerFromText(entries, cwd);
}

/** CLI flags and the config key each sets. `--config` and `--help` are handled separately. */
export const CLI_FLAGS = {
  '--host': 'host',
  '--port': 'port',
  '--base-path': 'basePath',
  '--public-base-url': 'publicBaseUrl',
  '--grpc-port': 'grpcPort',
  '--grpc-host': 'grpcHost',
  '--grpc-public-url': 'grpcPublicUrl',
  '--agent-module': 'agentModule',
  '--log-level': 'logLevel',
} as const;

/** What the command line asked for. */
export interface ParsedArgs {
  readonly configPath?: string;
  readonly help: boolean;
  readonly flags: ReadonlyArray<readonly [path: string, text: string, where: string]>;
}

/** Parses `--flag value` and `--flag=value`; unknown flags are an error. */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  let configPath: string | undefined;
  let help = false;
  const flags: Array<[string, string, string]> = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (name !== '--config' && !(name in CLI_FLAGS)) {
      throw new ConfigError(`Unknown argument ${JSON.stringify(arg)} (known: --config, ${Object.keys(CLI_FLAGS).join(', ')}, --help)`);
    }
    let value: string | undefined = eq > 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith('--'))) throw new ConfigError(`Missing value for ${name}`);
    if (name === '--config') configPath = value;
    else flags.push([CLI_FLAGS[name as keyof typeof CLI_FLAGS], value, name]);
  }
  return { configPath, help, flags };
}

/** Reads and validates a JSON config file. Relative paths inside it resolve against its directory. */
export function configFromFile(path: string): ExecutorConfigInput {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`Cannot read config file ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`Config file ${path} is not valid JSON: ${(error as Error).message}`);
  }
  return parseConfigInput(json, `config file ${path}: `, dirname(path));
}

/** Layers `over` onto `base`: scalars replace, nested objects merge, lists (skills, modes) replace. */
export function mergeConfig(base: ExecutorConfig, over: ExecutorConfigInput): ExecutorConfig {
  const defined = <T extends object>(o: T | undefined): Partial<T> =>
    Object.fromEntries(Object.entries(o ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>;
  const { agent, demo, auth, push, agents, handlers, store, eventLog, lease, ...scalars } = over;
  return {
    ...base,
    ...defined(scalars),
    agents: agents ? agents.map(withAgentDefaults) : base.agents,
    handlers: handlers ? { ...handlers } : base.handlers,
    agent: {
      ...base.agent,
      ...defined(agent),
      capabilities: { ...base.agent.capabilities, ...defined(agent?.capabilities) },
    },
    demo: { ...base.demo, ...defined(demo) },
    auth: { ...base.auth, ...defined(auth) },
    push: { ...base.push, ...defined(push) },
    store: { ...base.store, ...defined(store) },
    eventLog: { ...base.eventLog, ...defined(eventLog) },
    lease: { ...base.lease, ...defined(lease) },
  } as ExecutorConfig;
}

/**
 * A configured agent with every card field filled: the name defaults to the id, a chat skill
 * and plain text modes are assumed, streaming is on and push notifications are off.
 */
function withAgentDefaults(entry: NonNullable<ExecutorConfigInput['agents']>[number]): AgentEntryConfig {
  const name = entry.name ?? entry.id;
  return {
    id: entry.id,
    handler: entry.handler,
    settings: entry.settings ?? {},
    name,
    description: entry.description ?? `${name}, served through the ${entry.handler} handler`,
    version: entry.version ?? '1.0.0',
    provider: entry.provider,
    documentationUrl: entry.documentationUrl,
    iconUrl: entry.iconUrl,
    skills: entry.skills ?? [{ id: 'chat', name: 'Chat', description: 'Send a message and get an answer.', tags: ['chat'] }],
    capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false, ...Object.fromEntries(Object.entries(entry.capabilities ?? {}).filter(([, v]) => v !== undefined)) },
    defaultInputModes: entry.defaultInputModes ?? ['text/plain'],
    defaultOutputModes: entry.defaultOutputModes ?? ['text/plain'],
  };
}

/** Where {@link loadConfig} reads from; defaults to the real process. */
export interface LoadConfigOptions {
  readonly argv?: readonly string[];
  readonly env?: Readonly<Record<string, string | undefined>>;
  readonly cwd?: string;
}

/** The result of {@link loadConfig}: the configuration plus what the command line asked for. */
export interface LoadedConfig {
  readonly config: ExecutorConfig;
  readonly help: boolean;
  /** The config file used, if any (absolute path). */
  readonly configFile?: string;
}

/**
 * Resolves the configuration: built-in defaults < config file (`--config` or `A2A_CONFIG`) <
 * environment variables < CLI flags. Throws {@link ConfigError} (one line) on anything invalid.
 */
export function loadConfig(options: LoadConfigOptions = {}): LoadedConfig {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const args = parseArgs(options.argv ?? process.argv.slice(2));
  const fileArg = args.configPath ?? (env.A2A_CONFIG || undefined);
  const configFile = fileArg === undefined ? undefined : resolve(cwd, fileArg);

  let config = defaultConfig();
  if (configFile) config = mergeConfig(config, configFromFile(configFile));
  config = mergeConfig(config, configFromEnv(env, cwd));
  config = mergeConfig(config, layerFromText(args.flags, cwd));
  return { config: validateConfig(config), help: args.help, configFile };
}

/** Final cross-field checks on a merged configuration (each layer was type-checked already). */
export function validateConfig(config: ExecutorConfig): ExecutorConfig {
  if (config.agent.defaultInputModes.length === 0) fail('agent.defaultInputModes', 'a non-empty array of media types', []);
  if (config.agent.defaultOutputModes.length === 0) fail('agent.defaultOutputModes', 'a non-empty array of media types', []);
  checkSkillIds(config.agent.skills, 'agent.skills');
  const agentIds = new Set<string>();
  config.agents.forEach((entry, i) => {
    if (agentIds.has(entry.id)) throw new ConfigError(`Invalid configuration: duplicate agent id ${JSON.stringify(entry.id)} in agents[${i}].id`);
    agentIds.add(entry.id);
    if (entry.defaultInputModes.length === 0) fail(`agents[${i}].defaultInputModes`, 'a non-empty array of media types', []);
    if (entry.defaultOutputModes.length === 0) fail(`agents[${i}].defaultOutputModes`, 'a non-empty array of media types', []);
    checkSkillIds(entry.skills, `agents[${i}].skills`);
  });
  if (config.defaultAgent !== undefined && !agentIds.has(config.defaultAgent)) {
    throw new ConfigError(`Invalid configuration: defaultAgent ${JSON.stringify(config.defaultAgent)} is not the id of an entry in agents${agentIds.size ? ` (ids: ${[...agentIds].join(', ')})` : ''}`);
  }
  if (config.agents.length > 0 && config.agentModule !== undefined) {
    throw new ConfigError('Invalid configuration: agentModule serves the single agent; with agents, declare it as an agent with "handler": "module" and "settings": {"path": ...}');
  }
  const store = storeKind(config);
  const log = eventLogKind(config);
  if (store === 'postgres' && !config.store.url) throw new ConfigError('Invalid configuration: store.kind is postgres but store.url (A2A_POSTGRES_URL) is not set');
  if (log === 'redis' && !config.eventLog.url) throw new ConfigError('Invalid configuration: eventLog.kind is redis but eventLog.url (A2A_REDIS_URL) is not set');
  if (log === 'redis' && store !== 'postgres') {
    throw new ConfigError(`Invalid configuration: the Redis event log serves several instances, which need a shared store: use store.kind postgres (got ${store})`);
  }
  return config;
}

/** The task store a configuration selects (see {@link StoreConfig.kind}). */
export function storeKind(config: ExecutorConfig): 'memory' | 'sqlite' | 'postgres' {
  return config.store.kind ?? (config.store.url ? 'postgres' : config.store.path ? 'sqlite' : 'memory');
}

/** The event log a configuration selects (see {@link EventLogConfig.kind}). */
export function eventLogKind(config: ExecutorConfig): 'memory' | 'redis' {
  return config.eventLog.kind ?? (config.eventLog.url ? 'redis' : 'memory');
}

function checkSkillIds(skills: readonly SkillConfig[], where: string): void {
  const ids = new Set<string>();
  for (const skill of skills) {
    if (ids.has(skill.id)) throw new ConfigError(`Invalid configuration: duplicate skill id ${JSON.stringify(skill.id)} in ${where}`);
    ids.add(skill.id);
  }
}

/**
 * Resolves a configuration for in-process use (`startExecutor`): defaults overlaid with
 * `input`, validated like any other layer.
 */
export function resolveConfig(input: ExecutorConfigInput = {}): ExecutorConfig {
  return validateConfig(mergeConfig(defaultConfig(), parseConfigInput(stripUndefined(input), '')));
}

function stripUndefined(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(stripUndefined);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, stripUndefined(v)]));
}
