/**
 * The environment-variable layer: which variables are read and the config key each sets.
 */
import { layerFromText } from './text.js';
import type { ExecutorConfigInput } from './types.js';

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
  A2A_WEBSOCKET_IN_CARD: 'websocketInCard',
  A2A_INSPECTOR: 'inspector',
  A2A_CORS_ORIGINS: 'cors.origins',
  A2A_ALLOWED_HOSTS: 'allowedHosts',
  A2A_MAX_BODY_BYTES: 'maxBodyBytes',
  A2A_STRICT_REQUESTS: 'strictRequests',
  A2A_CARD_COMPAT: 'cardCompat',
  A2A_SSE_HEARTBEAT_MS: 'sseHeartbeatMs',
  A2A_STREAM_STALL_TIMEOUT_MS: 'streamStallTimeoutMs',
  A2A_LIST_TASKS_MAX_BYTES: 'listTasksMaxBytes',
  A2A_IDEMPOTENCY_WINDOW_MS: 'idempotencyWindowMs',
  A2A_SHUTDOWN_GRACE_MS: 'shutdownGraceMs',
  LOG_LEVEL: 'logLevel',
  A2A_AGENT_MODULE: 'agentModule',
  A2A_AGENT_NAME: 'agent.name',
  A2A_ACCEPT_ANY_INPUT_MODE: 'agent.acceptAnyInputMode',
  A2A_API_KEYS: 'auth.apiKeys',
  A2A_API_KEY_HEADER: 'auth.header',
  A2A_JWKS_URL: 'auth.jwksUrl',
  A2A_JWT_ISSUER: 'auth.jwtIssuer',
  A2A_JWT_AUDIENCE: 'auth.jwtAudience',
  A2A_JWT_CLOCK_TOLERANCE_SEC: 'auth.jwtClockToleranceSec',
  A2A_JWT_REQUIRE_EXP: 'auth.jwtRequireExp',
  A2A_JWT_MAX_LIFETIME_SEC: 'auth.jwtMaxLifetimeSec',
  A2A_JWKS_TIMEOUT_MS: 'auth.jwksTimeoutMs',
  A2A_JWKS_MAX_BYTES: 'auth.jwksMaxBytes',
  A2A_OIDC_URL: 'auth.openIdConnectUrl',
  A2A_PUSH_ALLOW_PRIVATE_NETWORKS: 'push.allowPrivateNetworks',
  // No flag: a key on the command line would show in `ps` and shell history.
  A2A_PUSH_SECRET_KEY: 'push.secretKey',
  A2A_DEMO_CHUNK_DELAY_MS: 'demo.chunkDelayMs',
  A2A_STORE: 'store.kind',
  A2A_SQLITE_PATH: 'store.path',
  A2A_POSTGRES_URL: 'store.url',
  A2A_POSTGRES_SCHEMA: 'store.schema',
  A2A_POSTGRES_MAX_CONNECTIONS: 'store.maxConnections',
  A2A_DYNAMODB_TABLE: 'store.table',
  A2A_DYNAMODB_ENDPOINT: 'store.endpoint',
  A2A_DYNAMODB_REGION: 'store.region',
  A2A_DYNAMODB_RETENTION_MS: 'store.retentionMs',
  A2A_MEMORY_STORE_MAX_BYTES: 'store.memoryMaxBytes',
  A2A_MEMORY_STORE_INTERRUPTED_IDLE_MS: 'store.memoryInterruptedIdleMs',
  A2A_EVENT_LOG: 'eventLog.kind',
  A2A_REDIS_URL: 'eventLog.url',
  A2A_REDIS_PREFIX: 'eventLog.prefix',
  A2A_EVENT_RETENTION_MS: 'eventLog.retentionMs',
  A2A_MEMORY_EVENT_LOG_MAX_BYTES: 'eventLog.memoryMaxBytes',
  A2A_EVENT_LOG_MAX_BYTES_PER_TASK: 'eventLog.maxBytesPerTask',
  A2A_INSTANCE_ID: 'instanceId',
  A2A_LEASE_MS: 'lease.ttlMs',
  A2A_LEASE_SWEEP_MS: 'lease.sweepIntervalMs',
  A2A_DEFAULT_AGENT: 'defaultAgent',
  A2A_AGENT_REGISTRY_URL: 'agentRegistry.url',
  A2A_AGENT_REGISTRY_SCHEMA: 'agentRegistry.schema',
  A2A_AGENT_REGISTRY_RESYNC_MS: 'agentRegistry.resyncMs',
  A2A_AGENT_REGISTRY_MODULE_DIRS: 'agentRegistry.moduleDirs',
  A2A_AGENT_REGISTRY_MODULE_PACKAGES: 'agentRegistry.modulePackages',
  A2A_AGENT_REGISTRY_LOAD_TIMEOUT_MS: 'agentRegistry.loadTimeoutMs',
  A2A_AGENT_REGISTRY_MAX_CARD_BYTES: 'agentRegistry.maxCardBytes',
  A2A_RATE_LIMIT_ADDRESS_POINTS: 'rateLimit.addressPoints',
  A2A_RATE_LIMIT_ADDRESS_WINDOW_SEC: 'rateLimit.addressWindowSec',
  A2A_RATE_LIMIT_IDENTITY_POINTS: 'rateLimit.identityPoints',
  A2A_RATE_LIMIT_IDENTITY_WINDOW_SEC: 'rateLimit.identityWindowSec',
  A2A_RATE_LIMIT_MAX_KEYS: 'rateLimit.maxKeys',
  A2A_TLS_CERT_FILE: 'tls.certFile',
  A2A_TLS_KEY_FILE: 'tls.keyFile',
  A2A_TLS_CLIENT_CA_FILE: 'tls.clientCaFile',
  A2A_TLS_CLIENT_CERT_IDENTITY: 'tls.clientCertIdentity',
  A2A_CARD_SIGNING_KEY_FILE: 'cardSigning.keyFile',
  A2A_CARD_SIGNING_KID: 'cardSigning.kid',
  A2A_CARD_SIGNING_ALG: 'cardSigning.alg',
  A2A_CARD_SIGNING_JKU: 'cardSigning.jku',
  A2A_PROTOCOL_EXPERIMENTAL11: 'protocol.experimental11',
  A2A_LONG_POLL_MAX_MS: 'protocol.longPollMaxMs',
} as const;

/** Reads the environment layer. Empty values count as unset. */
export function configFromEnv(env: Readonly<Record<string, string | undefined>>, cwd: string): ExecutorConfigInput {
  const entries: Array<[string, string, string]> = [];
  for (const [name, path] of Object.entries(ENV_VARS)) {
    const text = env[name];
    if (text !== undefined && text !== '') entries.push([path, text, name]);
  }
  return layerFromText(entries, cwd);
}
