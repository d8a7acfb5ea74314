/**
 * The text of `a2a-executor --help` (`npx a2a-executor --help`, `npm start -- --help`): every flag with what it sets
 * and its default, the environment variables of the configuration, and the OpenTelemetry
 * variables. The flag descriptions are the config schema's own (`.describe()` of the key each
 * flag sets), so help, `config.schema.json` and the README table cannot drift apart.
 */
import { CLI_FLAGS, configJsonSchema, ENV_VARS } from './config.js';
import { OTEL_VARIABLES } from './telemetry.js';

/** Width the help text is wrapped to. */
const WIDTH = 100;
/** Column the descriptions start at. */
const COLUMN = 28;

/** What the help says of a dotted config key (`store.table`): its description, its default, the key and its variable. */
function keyHelp(schema: Record<string, unknown>, path: string, envOf: ReadonlyMap<string, string>): string {
  let node: unknown = schema;
  for (const key of path.split('.')) node = (node as { properties?: Record<string, unknown> } | undefined)?.properties?.[key];
  const { description, default: fallback } = (node ?? {}) as { description?: unknown; default?: unknown };
  const env = envOf.get(path);
  return [
    typeof description === 'string' ? description : '',
    fallback !== undefined && typeof fallback !== 'object' ? `Default: ${String(fallback)}.` : '',
    `Config key: ${path}${env ? ` (${env})` : ''}.`,
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * `name` in a left column and `text` beside it, wrapped at word boundaries. Hand-written: a
 * dozen lines of word wrap do not justify a dependency of the service.
 */
function entry(name: string, text: string): string {
  const lines: string[] = [];
  let line = `  ${name}`.padEnd(COLUMN - 1);
  if (line.length >= COLUMN) {
    lines.push(line);
    line = ' '.repeat(COLUMN - 1);
  }
  for (const word of text.split(/\s+/)) {
    if (line.length + 1 + word.length > WIDTH && line.trim() !== '') {
      lines.push(line);
      line = ' '.repeat(COLUMN - 1);
    }
    line += ` ${word}`;
  }
  lines.push(line);
  return lines.join('\n');
}

/** The help text. */
export function usageText(): string {
  const schema = configJsonSchema();
  const envOf = new Map(Object.entries(ENV_VARS).map(([name, path]) => [path, name]));
  const flags = Object.entries(CLI_FLAGS).map(([flag, path]) => entry(`${flag} <value>`, keyHelp(schema, path, envOf)));
  const otel = Object.entries(OTEL_VARIABLES).map(([name, text]) => entry(name, `${text}.`));
  return `Usage: a2a-executor [--config file.json] [flags]
  (installed: npx a2a-executor ...; in the repository: npx a2a-executor ... or npm start -- ...)

Serves an A2A agent (the built-in demo echo agent unless agentModule is set), or the
agents of the config file's "agents" list (each routed to a handler such as openai-chat,
hermes-runs or openclaw-responses), over JSON-RPC, HTTP+JSON and WebSocket (JSON-RPC frames
at <basePath>/ws, /a2a/ws by default; listed in the card unless --websocket-in-card false,
served either way) on one HTTP port (PORT, default 8080), and over gRPC on its own port
(GRPC_PORT, default 50051; off disables it).
Precedence: defaults < config file < environment < flags. A bad configuration is refused
with every problem listed at once.

Flags (--flag value or --flag=value):
${entry('--config <file>', 'JSON config file (A2A_CONFIG); its relative paths resolve against its directory. Schema: config.schema.json.')}
${flags.join('\n')}
${entry('-h, --help', 'This help.')}

Environment (each sets the config key the README's configuration table names):
${wrapList(['A2A_CONFIG', ...Object.keys(ENV_VARS)])}

OpenTelemetry (traces are off unless one of the first three is set; the SDK reads the other
standard OTEL_* variables, such as OTEL_EXPORTER_OTLP_PROTOCOL and OTEL_EXPORTER_OTLP_HEADERS):
${otel.join('\n')}`;
}

/** Names separated by commas, wrapped and indented. */
function wrapList(names: readonly string[]): string {
  const lines: string[] = [];
  let line = ' ';
  for (const name of names) {
    if (line.length + name.length + 2 > WIDTH) {
      lines.push(line.trimEnd());
      line = ' ';
    }
    line += ` ${name},`;
  }
  lines.push(line.replace(/,$/, ''));
  return lines.join('\n');
}
