/**
 * THE schema of the executor configuration, and the one owner of every key: its value check,
 * its default (`.default()`; sections `.prefault({})`), its help text (`.describe()`), and the
 * environment variable and flag that set it (`.register(settingMeta, { env, flag })`). The
 * types (`../types.ts`), the defaults (`../defaults.ts`), the partial schema each layer is
 * checked with, the environment and flag tables (`../env.ts`, `../flags.ts`), their text
 * conversion (`../text.ts`), the layering (`../merge.ts`), `--help` and `config.schema.json`
 * (`npm run generate` in services/executor) are all derived from it.
 *
 * To add a key: one line in its section (here or the section's file), then regenerate the
 * JSON Schema.
 */
import { CARD_COMPAT_VALUES } from '@a2a-polyglot/server';
import { z } from 'zod';
import { agentSchema, agentsSchema, handlersSchema } from './agent.js';
import { authSchema, pushSchema } from './auth.js';
import { allowedHostsSchema, corsSchema } from './browser.js';
import { forwardedHeaderSchema, trustedProxiesSchema } from './proxies.js';
import { cardSigningSchema, protocolSchema, rateLimitSchema, tlsSchema, websocketSchema } from './listener.js';
import { agentRegistrySchema, eventLogSchema, leaseSchema, queueSchema, storeSchema } from './storage.js';
import { settingMeta, withoutDefaults } from './setting.js';
import { absoluteUrl, agentId, basePath, bool, grpcPublicUrl, nonEmpty, nonNegativeMs, oneOf, port, portOrOff, positiveBytes, section, str } from './values.js';

/** Log levels of the executor's pino logger, lowest first. */
const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;

/** Where the generated JSON Schema is published next to the package (the `$schema` of config files). */
export const CONFIG_SCHEMA_FILE = 'config.schema.json';

/** The configuration file (and every other layer), as the operator writes it. */
export const configFileSchema = section({
  $schema: str.optional().describe(`The JSON Schema of this file (${CONFIG_SCHEMA_FILE} of @a2a-polyglot/executor), for editors.`),
  host: nonEmpty.default('127.0.0.1').describe('Interface the HTTP listener binds.').register(settingMeta, { env: 'HOST', flag: '--host' }),
  port: port.default(8080).describe('HTTP port; 0 picks a free one.').register(settingMeta, { env: 'PORT', flag: '--port' }),
  basePath: basePath
    .default('/a2a')
    .describe('Prefix of the A2A routes: JSON-RPC at {basePath}/rpc, REST under {basePath}.')
    .register(settingMeta, { env: 'A2A_BASE_PATH', flag: '--base-path' }),
  publicBaseUrl: absoluteUrl
    .optional()
    .describe('Absolute URL clients reach this service at (behind a proxy); unset, derived per request.')
    .register(settingMeta, { env: 'A2A_PUBLIC_BASE_URL', flag: '--public-base-url' }),
  trustProxy: bool
    .default(false)
    .describe('Honour X-Forwarded-Proto/Host when deriving URLs. Only behind a proxy you trust.')
    .register(settingMeta, { env: 'A2A_TRUST_PROXY' }),
  trustedProxies: trustedProxiesSchema
    .default(() => [])
    .describe(
      'Reverse proxies whose forwarded header names the client for per-address rate limits: addresses and CIDR ranges (or loopback, linklocal, uniquelocal), or a hop count. Default none: the TCP peer is the client.',
    )
    .register(settingMeta, { env: 'A2A_TRUSTED_PROXIES', flag: '--trusted-proxies', text: 'hopsOrList' }),
  forwardedHeader: forwardedHeaderSchema
    .default('x-forwarded-for')
    .describe('The header those proxies write: x-forwarded-for or forwarded (RFC 7239).')
    .register(settingMeta, { env: 'A2A_FORWARDED_HEADER', flag: '--forwarded-header' }),
  grpcPort: portOrOff
    .optional()
    .describe('gRPC port; 0 picks a free one, false or "off" turns gRPC off. Unset: 50051, or a free port when port is 0.')
    .register(settingMeta, { env: 'GRPC_PORT', flag: '--grpc-port', text: 'portOrOff' }),
  grpcHost: nonEmpty.optional().describe('Interface the gRPC listener binds. Unset: host.').register(settingMeta, { env: 'GRPC_HOST', flag: '--grpc-host' }),
  grpcPublicUrl: grpcPublicUrl
    .optional()
    .describe("The card's GRPC interface url, verbatim (host:port or https://host).")
    .register(settingMeta, { env: 'A2A_GRPC_PUBLIC_URL', flag: '--grpc-public-url' }),
  websocketInCard: bool
    .default(true)
    .describe('List the WebSocket binding in the agent card.')
    .register(settingMeta, { env: 'A2A_WEBSOCKET_IN_CARD', flag: '--websocket-in-card' }),
  websocket: websocketSchema.prefault({}),
  inspector: bool
    .optional()
    .describe('Serve the browser inspector at /inspector. Unset: on exactly when host is a loopback address.')
    .register(settingMeta, { env: 'A2A_INSPECTOR', flag: '--inspector' }),
  cors: corsSchema.prefault({}),
  allowedHosts: allowedHostsSchema.optional().register(settingMeta, { env: 'A2A_ALLOWED_HOSTS', flag: '--allowed-hosts' }),
  maxBodyBytes: positiveBytes
    .default(4 * 1024 * 1024)
    .describe('Largest request body, in bytes.')
    .register(settingMeta, { env: 'A2A_MAX_BODY_BYTES' }),
  strictRequests: bool
    .default(false)
    .describe('Reject unknown request members instead of ignoring them.')
    .register(settingMeta, { env: 'A2A_STRICT_REQUESTS', flag: '--strict-requests' }),
  cardCompat: oneOf(CARD_COMPAT_VALUES)
    .default('merged')
    .describe('The card a discovery request without A2A-Version gets: merged (1.0 plus the 0.3 members), 1.0 or 0.3.')
    .register(settingMeta, { env: 'A2A_CARD_COMPAT', flag: '--card-compat' }),
  sseHeartbeatMs: nonNegativeMs
    .default(15_000)
    .describe('SSE keep-alive comment interval; 0 disables it.')
    .register(settingMeta, { env: 'A2A_SSE_HEARTBEAT_MS' }),
  streamStallTimeoutMs: nonNegativeMs
    .default(30_000)
    .describe('How long an SSE, gRPC or WebSocket stream may stay blocked on a client that stopped reading (the task goes on); 0 disables.')
    .register(settingMeta, { env: 'A2A_STREAM_STALL_TIMEOUT_MS' }),
  listTasksMaxBytes: positiveBytes
    .default(4 * 1024 * 1024)
    .describe('Most bytes of task JSON one ListTasks page carries.')
    .register(settingMeta, { env: 'A2A_LIST_TASKS_MAX_BYTES' }),
  idempotencyWindowMs: nonNegativeMs
    .default(24 * 60 * 60 * 1000)
    .describe(
      "How long a send is remembered by (principal, tenant, messageId), so a retry answers the first send's task or reply instead of running the agent again; 0 disables.",
    )
    .register(settingMeta, { env: 'A2A_IDEMPOTENCY_WINDOW_MS', flag: '--idempotency-window-ms' }),
  shutdownGraceMs: nonNegativeMs
    .default(10_000)
    .describe(
      'How long running tasks may finish on SIGINT/SIGTERM before they are failed (a queued task of a retryable agent is handed back to the queue instead).',
    )
    .register(settingMeta, { env: 'A2A_SHUTDOWN_GRACE_MS' }),
  logLevel: oneOf(LOG_LEVELS).default('info').describe('Lowest level logged.').register(settingMeta, { env: 'LOG_LEVEL', flag: '--log-level' }),
  logFormat: oneOf(['pretty', 'json'])
    .optional()
    .describe('pretty (coloured lines, pino-pretty) or json (JSON lines). Unset: pretty when stdout is a terminal, else json.')
    .register(settingMeta, { env: 'A2A_LOG_FORMAT', flag: '--log-format' }),
  agent: agentSchema.prefault({}),
  agentModule: nonEmpty
    .optional()
    .describe('Module exporting your AgentExecutor (relative to the config file; a bare name is a package). Unset: the demo agent.')
    .register(settingMeta, { env: 'A2A_AGENT_MODULE', flag: '--agent-module' }),
  demo: section({
    chunkDelayMs: nonNegativeMs.default(50).describe('Pause between two streamed chunks.').register(settingMeta, { env: 'A2A_DEMO_CHUNK_DELAY_MS' }),
  })
    .prefault({})
    .describe('Settings of the built-in demo agent.'),
  agents: agentsSchema.optional(),
  handlers: handlersSchema.default(() => ({})),
  defaultAgent: agentId
    .optional()
    .describe('Id of the agent also served at the root paths. Default: the first of agents.')
    .register(settingMeta, { env: 'A2A_DEFAULT_AGENT' }),
  auth: authSchema.prefault({}),
  push: pushSchema.prefault({}),
  store: storeSchema.prefault({}),
  eventLog: eventLogSchema.prefault({}),
  instanceId: nonEmpty
    .optional()
    .describe("This instance's id (lease owner). Unset: the host name for SQLite, host name + pid + random for PostgreSQL and DynamoDB.")
    .register(settingMeta, { env: 'A2A_INSTANCE_ID' }),
  lease: leaseSchema.prefault({}),
  queue: queueSchema.prefault({}),
  role: oneOf(['all', 'frontend', 'worker'])
    .default('all')
    .describe(
      'Needs queue.enabled unless all: frontend serves calls and only queues runs, worker only runs queued runs and binds no port (no HTTP, gRPC or health listener), all does both.',
    )
    .register(settingMeta, { env: 'A2A_ROLE', flag: '--role' }),
  agentRegistry: agentRegistrySchema.prefault({}),
  rateLimit: rateLimitSchema.prefault({}),
  tls: tlsSchema.prefault({}),
  cardSigning: cardSigningSchema.prefault({}),
  protocol: protocolSchema.prefault({}),
});

/** The schema one layer is checked with: every key optional, no defaults (see {@link withoutDefaults}). */
export const configLayerSchema = withoutDefaults(configFileSchema);

/** The JSON Schema of a config file, generated from {@link configFileSchema} (what `config.schema.json` holds). */
export function configJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(configFileSchema, { io: 'input' }),
    title: 'A2A Polyglot executor configuration',
  };
}
