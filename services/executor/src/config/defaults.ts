/**
 * The built-in defaults: the lowest layer of the configuration, what a laptop run gets with no
 * file, variable or flag. Each default is written beside its key in the schema; this is the
 * schema's answer to an empty layer.
 */
import { markCardKeys } from './card-keys.js';
import { configFileSchema } from './schema/config-file.js';
import { withEveryKey } from './schema/setting.js';
import type { ExecutorConfig } from './types.js';

/** The gRPC port when none is configured (the conventional gRPC port, as in `@a2a-polyglot/grpc`). */
export const DEFAULT_GRPC_PORT = 50051;

/** The built-in defaults (lowest precedence): a fresh object each call. */
export function defaultConfig(): ExecutorConfig {
  const { $schema: _schema, agents, ...defaults } = withEveryKey(configFileSchema, configFileSchema.parse({})) as ExecutorConfig & { $schema?: string };
  // Marked as set by no layer: the card defaults describe the demo agent, and an agent module's card replaces them.
  return { ...defaults, agent: markCardKeys(defaults.agent, []), agents: agents ?? [] };
}
