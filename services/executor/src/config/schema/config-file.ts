/**
 * THE schema of the executor configuration: one source of truth for the shape of a config
 * file, of a `startExecutor` argument, and of each environment variable and flag (converted
 * from text first). `config.schema.json` is generated from it (`npm run generate:config-schema`
 * in services/executor), and config files point at that with `$schema` so editors complete
 * and check them.
 *
 * To add a key: add it to the section's shape here (or in its section file) with its value
 * schema from `values.ts`, add it to `ExecutorConfig` in `../types.ts` and a default in
 * `../defaults.ts`, then regenerate the JSON Schema. An environment variable or flag for it
 * goes in `../env.ts` / `../flags.ts` (and `../text.ts` when its text is not a string).
 */
import { CARD_COMPAT_VALUES } from '@a2a-polyglot/server';
import { z } from 'zod';
import { agentSchema, agentsSchema, handlersSchema } from './agent.js';
import { authSchema, pushSchema } from './auth.js';
import { allowedHostsSchema, corsSchema } from './browser.js';
import { cardSigningSchema, protocolSchema, rateLimitSchema, tlsSchema } from './listener.js';
import { agentRegistrySchema, eventLogSchema, leaseSchema, storeSchema } from './storage.js';
import type { ExecutorConfigInput } from '../types.js';
import { absoluteUrl, agentId, basePath, bool, grpcPublicUrl, nonEmpty, nonNegativeMs, oneOf, port, portOrOff, positiveBytes, section, str } from './values.js';

/** Where the generated JSON Schema is published next to the package (the `$schema` of config files). */
export const CONFIG_SCHEMA_FILE = 'config.schema.json';

/** The configuration file (and every other layer), as the operator writes it. */
export const configFileSchema = section({
  $schema: str.optional().describe(`The JSON Schema of this file (${CONFIG_SCHEMA_FILE} of @a2a-polyglot/executor), for editors.`),
  host: nonEmpty.optional().describe('Interface the HTTP listener binds (HOST). Default 127.0.0.1.'),
  port: port.optional().describe('HTTP port (PORT); 0 picks a free one. Default 8080.'),
  basePath: basePath.optional().describe('Prefix of the A2A routes: JSON-RPC at {basePath}/rpc, REST under {basePath}. Default /a2a.'),
  publicBaseUrl: absoluteUrl.optional().describe('Absolute URL clients reach this service at (behind a proxy).'),
  trustProxy: bool.optional().describe('Honour X-Forwarded-Proto/Host when deriving URLs. Only behind a proxy you trust.'),
  grpcPort: portOrOff.optional().describe('gRPC port (GRPC_PORT); 0 picks a free one, false or "off" turns gRPC off. Default 50051.'),
  grpcHost: nonEmpty.optional().describe('Interface the gRPC listener binds. Default: host.'),
  grpcPublicUrl: grpcPublicUrl.optional().describe("The card's GRPC interface url, verbatim (host:port or https://host)."),
  websocketInCard: bool.optional().describe('List the WebSocket binding in the agent card. Default true.'),
  inspector: bool.optional().describe('Serve the browser inspector at /inspector (A2A_INSPECTOR). Default: on exactly when host is a loopback address.'),
  cors: corsSchema.optional(),
  allowedHosts: allowedHostsSchema.optional(),
  maxBodyBytes: positiveBytes.optional().describe('Largest request body. Default 4 MiB.'),
  strictRequests: bool.optional().describe('Reject unknown request members instead of ignoring them. Default false.'),
  cardCompat: oneOf(CARD_COMPAT_VALUES).optional().describe('The card a discovery request without A2A-Version gets. Default merged.'),
  sseHeartbeatMs: nonNegativeMs.optional().describe('SSE keep-alive comment interval; 0 disables it. Default 15000.'),
  streamStallTimeoutMs: nonNegativeMs.optional().describe('How long a stream may stay blocked on a client that stopped reading. Default 30000.'),
  listTasksMaxBytes: positiveBytes.optional().describe('Most bytes of task JSON one ListTasks page carries. Default 4 MiB.'),
  idempotencyWindowMs: nonNegativeMs
    .optional()
    .describe(
      "How long a send is remembered by (principal, tenant, messageId), so a retry answers the first send's task instead of running again; 0 disables. Default 86400000 (24 h).",
    ),
  shutdownGraceMs: nonNegativeMs.optional().describe('How long running tasks may finish on SIGINT/SIGTERM. Default 10000.'),
  logLevel: oneOf(['debug', 'info', 'warn', 'error']).optional().describe('Lowest level logged (LOG_LEVEL). Default info.'),
  agent: agentSchema.optional(),
  agentModule: nonEmpty.optional().describe('Module exporting your AgentExecutor (relative to the config file). Unset: the demo agent.'),
  demo: section({ chunkDelayMs: nonNegativeMs.optional() }).optional().describe('Settings of the built-in demo agent.'),
  agents: agentsSchema.optional(),
  handlers: handlersSchema.optional(),
  defaultAgent: agentId.optional().describe('Id of the agent also served at the root paths. Default: the first of agents.'),
  auth: authSchema.optional(),
  push: pushSchema.optional(),
  store: storeSchema.optional(),
  eventLog: eventLogSchema.optional(),
  instanceId: nonEmpty.optional().describe("This instance's id (lease owner)."),
  lease: leaseSchema.optional(),
  agentRegistry: agentRegistrySchema.optional(),
  rateLimit: rateLimitSchema.optional(),
  tls: tlsSchema.optional(),
  cardSigning: cardSigningSchema.optional(),
  protocol: protocolSchema.optional(),
});

/** A configuration layer as checked by {@link configFileSchema} (relative paths not yet resolved). */
export type ConfigFileLayer = z.output<typeof configFileSchema>;

/** The JSON Schema of a config file, generated from {@link configFileSchema} (what `config.schema.json` holds). */
export function configJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(configFileSchema, { io: 'input' }),
    title: 'A2A Polyglot executor configuration',
  };
}

// Keeps the schema and the hand-written ExecutorConfigInput (with its JSDoc) in step: a key
// added to one and not the other fails the type check.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const keysMatch: Same<Exclude<keyof ConfigFileLayer, '$schema'>, keyof ExecutorConfigInput> = true;
void keysMatch;
