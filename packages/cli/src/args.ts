import { parseArgs } from 'node:util';
import { parseBindingKey, type BindingKey } from '@a2a-polyglot/client';

/** The commands of `a2a`. */
export type CommandName = 'card' | 'send' | 'get' | 'list' | 'cancel' | 'subscribe';
export const COMMANDS: readonly CommandName[] = ['card', 'send', 'get', 'list', 'cancel', 'subscribe'];

/** Options every command accepts. */
export interface CommonOptions {
  readonly binding?: BindingKey;
  readonly headers: Record<string, string>;
  readonly token?: string;
  readonly json: boolean;
  /** Bound of every wait, in ms. */
  readonly timeoutMs: number;
}

/** A parsed command line. */
export type Parsed =
  | { readonly kind: 'help'; readonly command?: CommandName }
  | { readonly kind: 'version' }
  | { readonly kind: 'command'; readonly command: CommandName; readonly positionals: readonly string[]; readonly common: CommonOptions; readonly values: Record<string, unknown> };

/** A command-line mistake: printed with a pointer to `--help`, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: CommandName,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Default of `--timeout`, in seconds. */
export const DEFAULT_TIMEOUT_S = 30;

const COMMON = {
  binding: { type: 'string', short: 'b' },
  header: { type: 'string', short: 'H', multiple: true },
  token: { type: 'string' },
  json: { type: 'boolean' },
  timeout: { type: 'string', short: 't' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Per-command options and the positionals they need. */
const SPEC = {
  card: { options: {}, positionals: ['URL'] },
  send: {
    options: {
      'no-stream': { type: 'boolean' },
      'task-id': { type: 'string' },
      'context-id': { type: 'string' },
      input: { type: 'string', multiple: true },
    },
    positionals: ['URL', 'TEXT'],
  },
  get: { options: { history: { type: 'string' } }, positionals: ['URL', 'TASK_ID'] },
  list: {
    options: { 'context-id': { type: 'string' }, status: { type: 'string' }, 'page-size': { type: 'string' }, 'page-token': { type: 'string' } },
    positionals: ['URL'],
  },
  cancel: { options: {}, positionals: ['URL', 'TASK_ID'] },
  subscribe: { options: {}, positionals: ['URL', 'TASK_ID'] },
} as const;

/** Parses `argv` (without node and script). Throws {@link UsageError} on mistakes. */
export function parse(argv: readonly string[]): Parsed {
  const first = argv[0];
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const topic = first === 'help' ? argv[1] : undefined;
    if (topic !== undefined && !COMMANDS.includes(topic as CommandName)) throw new UsageError(`unknown command "${topic}"`);
    return { kind: 'help', command: topic as CommandName | undefined };
  }
  if (first === '--version' || first === '-V') return { kind: 'version' };
  if (!COMMANDS.includes(first as CommandName)) {
    throw new UsageError(first.startsWith('-') ? `expected a command before ${first}` : `unknown command "${first}" (commands: ${COMMANDS.join(', ')})`);
  }
  const command = first as CommandName;
  const spec = SPEC[command];
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: argv.slice(1), options: { ...COMMON, ...spec.options }, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, ''), command);
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help', command };
  if (positionals.length < spec.positionals.length) {
    throw new UsageError(`missing ${spec.positionals.slice(positionals.length).join(' and ')}`, command);
  }
  if (positionals.length > spec.positionals.length) {
    const extra = positionals.slice(spec.positionals.length).join(' ');
    throw new UsageError(`unexpected argument${positionals.length - spec.positionals.length > 1 ? 's' : ''}: ${extra}${command === 'send' ? ' (quote the message text)' : ''}`, command);
  }
  return { kind: 'command', command, positionals, common: common(values, command), values };
}

function common(values: Record<string, unknown>, command: CommandName): CommonOptions {
  let binding: BindingKey | undefined;
  if (typeof values.binding === 'string') {
    binding = parseBindingKey(values.binding);
    if (!binding) throw new UsageError(`--binding must be one of jsonrpc, rest, grpc, websocket (got "${values.binding}")`, command);
  }
  const headers: Record<string, string> = {};
  for (const header of (values.header as string[] | undefined) ?? []) {
    const colon = header.indexOf(':');
    if (colon <= 0) throw new UsageError(`--header must look like "Name: value" (got "${header}")`, command);
    headers[header.slice(0, colon).trim()] = header.slice(colon + 1).trim();
  }
  let timeoutMs = DEFAULT_TIMEOUT_S * 1000;
  if (typeof values.timeout === 'string') {
    const seconds = Number(values.timeout.replace(/s$/, ''));
    if (!Number.isFinite(seconds) || seconds <= 0) throw new UsageError(`--timeout must be a positive number of seconds (got "${values.timeout}")`, command);
    timeoutMs = Math.round(seconds * 1000);
  }
  return { binding, headers, token: values.token as string | undefined, json: values.json === true, timeoutMs };
}

/** A non-negative integer option, or a usage error naming it. */
export function intOption(values: Record<string, unknown>, name: string, command: CommandName): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a non-negative integer (got "${String(raw)}")`, command);
  return Number(raw);
}
