/**
 * The command-line layer: which flags exist, the config key each sets, and parsing `argv`
 * (`--config` and `--help` included).
 */
import { ConfigError } from './errors.js';
import { closestKey } from './schema-errors.js';

/** CLI flags and the config key each sets. `--config` and `--help` are handled separately. */
export const CLI_FLAGS = {
  '--host': 'host',
  '--port': 'port',
  '--base-path': 'basePath',
  '--public-base-url': 'publicBaseUrl',
  '--grpc-port': 'grpcPort',
  '--grpc-host': 'grpcHost',
  '--grpc-public-url': 'grpcPublicUrl',
  '--websocket-in-card': 'websocketInCard',
  '--inspector': 'inspector',
  '--cors-origins': 'cors.origins',
  '--allowed-hosts': 'allowedHosts',
  '--agent-module': 'agentModule',
  '--log-level': 'logLevel',
  '--strict-requests': 'strictRequests',
  '--card-compat': 'cardCompat',
  '--accept-any-input-mode': 'agent.acceptAnyInputMode',
  '--card-signing-key-file': 'cardSigning.keyFile',
  '--card-signing-kid': 'cardSigning.kid',
  '--experimental-11': 'protocol.experimental11',
  '--idempotency-window-ms': 'idempotencyWindowMs',
  '--store': 'store.kind',
  '--dynamodb-table': 'store.table',
  '--dynamodb-endpoint': 'store.endpoint',
  '--dynamodb-region': 'store.region',
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
  const args = [...argv];
  for (let arg = args.shift(); arg !== undefined; arg = args.shift()) {
    if (arg === '--help' || arg === '-h') {
      help = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq > 0 ? arg.slice(0, eq) : arg;
    if (name !== '--config' && !(name in CLI_FLAGS)) {
      const known = ['--config', ...Object.keys(CLI_FLAGS), '--help'];
      const guess = name.startsWith('--') ? closestKey(name, known) : undefined;
      throw new ConfigError(`Unknown argument ${JSON.stringify(arg)} (${guess ? `did you mean ${guess}?` : `known: ${known.join(', ')}`})`);
    }
    const value: string | undefined = eq > 0 ? arg.slice(eq + 1) : args.shift();
    if (value === undefined || (eq < 0 && value.startsWith('--'))) throw new ConfigError(`Missing value for ${name}`);
    if (name === '--config') configPath = value;
    else flags.push([CLI_FLAGS[name as keyof typeof CLI_FLAGS], value, name]);
  }
  return { configPath, help, flags };
}
