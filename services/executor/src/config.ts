/**
 * The executor's configuration: built-in defaults < config file < environment variables < CLI
 * flags, checked and merged into one {@link ExecutorConfig}. The work is split by job under
 * `config/`; this module is the stable import path and re-exports exactly the public API
 * (the value checkers and text-layer helpers there stay internal).
 *
 * - `config/types.ts`: the configuration types, derived from the schema;
 * - `config/errors.ts`: {@link ConfigError};
 * - `config/defaults.ts`: the built-in defaults (the schema's answer to an empty layer);
 * - `config/derived.ts`: what a resolved configuration selects (store, event log, gRPC address);
 * - `config/schema/`: THE zod schema, the one owner of every key (`config-file.ts`, one file per
 *   section, value schemas in `values.ts`, the derivations in `setting.ts`); `config.schema.json`
 *   is generated from it;
 * - `config/schema-errors.ts`: schema issues as one-line errors naming the path;
 * - `config/parse.ts`: one raw layer to a typed partial (schema, then relative paths);
 * - `config/text.ts`: converting environment and flag text into a layer;
 * - `config/env.ts`, `config/flags.ts`, `config/file.ts`: the three layers' sources;
 * - `config/merge.ts`: layering a partial onto a complete configuration;
 * - `config/validate.ts`: cross-field checks on the merged result;
 * - `config/resolve.ts`: {@link loadConfig} and {@link resolveConfig}, which put it together.
 */
export type {
  A2ALiteConfig,
  AgentCardConfig,
  AgentEntryConfig,
  AuthConfig,
  EventLogConfig,
  ExecutorConfig,
  ExecutorConfigInput,
  ConfigLayer,
  LeaseConfig,
  RateLimitConfig,
  LogFormat,
  LogLevel,
  SkillConfig,
  StoreConfig,
  TlsConfig,
} from './config/types.js';
export { ConfigError } from './config/errors.js';
export { DEFAULT_GRPC_PORT, defaultConfig } from './config/defaults.js';
export { agentRegistryKind, eventLogKind, grpcListenAddress, inspectorEnabled, isLoopbackHost, storeKind } from './config/derived.js';
export { parseConfigInput } from './config/parse.js';
export { CONFIG_SCHEMA_FILE, configFileSchema, configJsonSchema } from './config/schema/config-file.js';
export { configFromEnv, ENV_VARS } from './config/env.js';
export { CLI_FLAGS, parseArgs, type ParsedArgs } from './config/flags.js';
export { configFromFile } from './config/file.js';
export { mergeConfig } from './config/merge.js';
export { validateConfig } from './config/validate.js';
export { loadConfig, resolveConfig, type LoadConfigOptions, type LoadedConfig } from './config/resolve.js';
