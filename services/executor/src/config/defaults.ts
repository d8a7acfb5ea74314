/**
 * The built-in defaults: the lowest layer of the configuration, what a laptop run gets with no
 * file, variable or flag.
 */
import { JWT_DEFAULTS } from '@a2a-polyglot/auth-jwt';
import { DEFAULT_EVENT_LOG_MAX_BYTES, DEFAULT_INTERRUPTED_IDLE_MS, DEFAULT_MEMORY_STORE_MAX_BYTES } from '@a2a-polyglot/core';
import { DEFAULT_RATE_LIMIT_MAX_KEYS } from '@a2a-polyglot/server';
import { DEFAULT_REDIS_LOG_MAX_BYTES_PER_TASK } from '@a2a-polyglot/stores';
import { DEMO_INPUT_MODES } from '../demo-agent.js';
import type { ExecutorConfig } from './types.js';

const DAY_MS = 24 * 60 * 60 * 1000;

/** The gRPC port when none is configured (the conventional gRPC port, as in `@a2a-polyglot/grpc`). */
export const DEFAULT_GRPC_PORT = 50051;

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
    websocketInCard: true,
    inspector: undefined,
    cors: { origins: [] },
    allowedHosts: undefined,
    maxBodyBytes: 4 * 1024 * 1024,
    strictRequests: false,
    cardCompat: 'merged',
    sseHeartbeatMs: 15_000,
    streamStallTimeoutMs: 30_000,
    listTasksMaxBytes: 4 * 1024 * 1024,
    idempotencyWindowMs: 86_400_000,
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
      defaultInputModes: DEMO_INPUT_MODES,
      defaultOutputModes: ['text/plain'],
      acceptAnyInputMode: false,
    },
    agentModule: undefined,
    demo: { chunkDelayMs: 50 },
    agents: [],
    handlers: {},
    defaultAgent: undefined,
    agentRegistry: {
      kind: undefined,
      url: undefined,
      schema: 'public',
      resyncMs: 30_000,
      moduleDirs: [],
      modulePackages: [],
      loadTimeoutMs: 10_000,
      maxCardBytes: 64 * 1024,
    },
    auth: {
      apiKeys: {},
      header: 'x-api-key',
      jwtRequireExp: true,
      jwtMaxLifetimeSec: JWT_DEFAULTS.maxLifetimeSec,
      jwksTimeoutMs: JWT_DEFAULTS.jwksTimeoutMs,
      jwksMaxBytes: JWT_DEFAULTS.jwksMaxBytes,
      principalAliases: {},
    },
    push: { allowPrivateNetworks: false },
    store: {
      kind: undefined,
      path: undefined,
      url: undefined,
      schema: 'public',
      maxConnections: 10,
      table: undefined,
      endpoint: undefined,
      region: undefined,
      retentionMs: 30 * DAY_MS,
      memoryMaxBytes: DEFAULT_MEMORY_STORE_MAX_BYTES,
      memoryInterruptedIdleMs: DEFAULT_INTERRUPTED_IDLE_MS,
    },
    eventLog: {
      kind: undefined,
      url: undefined,
      prefix: 'a2a',
      retentionMs: 5 * 60_000,
      maxEventsPerTask: 4096,
      memoryMaxBytes: DEFAULT_EVENT_LOG_MAX_BYTES,
      maxBytesPerTask: DEFAULT_REDIS_LOG_MAX_BYTES_PER_TASK,
    },
    instanceId: undefined,
    lease: { ttlMs: 30_000, sweepIntervalMs: 10_000 },
    rateLimit: { addressPoints: 0, addressWindowSec: 60, identityPoints: 0, identityWindowSec: 60, maxKeys: DEFAULT_RATE_LIMIT_MAX_KEYS },
    tls: { certFile: undefined, keyFile: undefined, clientCaFile: undefined, clientCertIdentity: false },
    cardSigning: { keyFile: undefined, kid: undefined, alg: undefined, jku: undefined },
    protocol: { experimental11: false, longPollMaxMs: 30_000 },
  };
}
