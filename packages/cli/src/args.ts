import { parseArgs } from 'node:util';
import { parseBindingKey, type BindingKey } from '@a2a-polyglot/client';

/** The commands of `a2a`. */
export type CommandName = 'card' | 'send' | 'get' | 'list' | 'cancel' | 'subscribe' | 'lite';
export const COMMANDS: readonly CommandName[] = ['card', 'send', 'get', 'list', 'cancel', 'subscribe', 'lite'];

/** The subcommands of `a2a lite`. */
export type LiteSubcommand = 'parse' | 'format' | 'run';
export const LITE_SUBCOMMANDS: readonly LiteSubcommand[] = ['parse', 'format', 'run'];

/** What `--help` can be about: the CLI, a command, or an `a2a lite` subcommand. */
export type HelpTopic = 'main' | CommandName | `lite ${LiteSubcommand}`;

/** Options every command accepts. */
export interface CommonOptions {
  readonly binding?: BindingKey;
  readonly headers: Record<string, string>;
  /** Bearer token: `--token`, else `A2A_TOKEN`. */
  readonly token?: string;
  /** API key (`A2A_API_KEY`), sent in the header the card's API key scheme names. */
  readonly apiKey?: string;
  readonly json: boolean;
  /** Bound of every wait, in ms. */
  readonly timeoutMs: number;
}

/** A parsed command line. */
export type Parsed =
  | { readonly kind: 'help'; readonly command?: HelpTopic }
  | { readonly kind: 'version' }
  | {
      readonly kind: 'command';
      readonly command: CommandName;
      readonly positionals: readonly string[];
      readonly common: CommonOptions;
      readonly values: Record<string, unknown>;
    };

/** A command-line mistake: printed with a pointer to `--help`, exit code 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    readonly command?: HelpTopic,
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
      'no-wait': { type: 'boolean' },
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

/** Options of `a2a lite run`: the common ones except `--binding` (A2A-Lite delegates over JSON-RPC). */
const LITE_RUN_OPTIONS = {
  header: COMMON.header,
  token: COMMON.token,
  json: COMMON.json,
  timeout: COMMON.timeout,
  help: COMMON.help,
  'no-stream': { type: 'boolean' },
  'context-id': { type: 'string' },
} as const;

/**
 * Parses `argv` (without node and script). `env` supplies the credentials a command line
 * should not carry (`A2A_TOKEN`, `A2A_API_KEY`: a flag shows up in `ps` and shell history).
 * Throws {@link UsageError} on mistakes.
 */
export function parse(argv: readonly string[], env: NodeJS.ProcessEnv = {}): Parsed {
  const first = argv[0];
  if (first === undefined || first === '--help' || first === '-h' || first === 'help') {
    const topic = first === 'help' ? argv[1] : undefined;
    if (topic !== undefined && !COMMANDS.includes(topic as CommandName)) throw new UsageError(`unknown command "${topic}"`);
    if (topic === 'lite' && LITE_SUBCOMMANDS.includes(argv[2] as LiteSubcommand)) return { kind: 'help', command: `lite ${argv[2] as LiteSubcommand}` };
    return { kind: 'help', command: topic as CommandName | undefined };
  }
  if (first === '--version' || first === '-V') return { kind: 'version' };
  if (!COMMANDS.includes(first as CommandName)) {
    throw new UsageError(first.startsWith('-') ? `expected a command before ${first}` : `unknown command "${first}" (commands: ${COMMANDS.join(', ')})`);
  }
  const command = first as CommandName;
  if (command === 'lite') return parseLiteCommand(argv.slice(1), env);
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
    throw new UsageError(
      `unexpected argument${positionals.length - spec.positionals.length > 1 ? 's' : ''}: ${extra}${command === 'send' ? ' (quote the message text)' : ''}`,
      command,
    );
  }
  checkUrl(positionals[0], command);
  return { kind: 'command', command, positionals, common: common(values, command, env), values };
}

/**
 * The agent's URL must say how to reach it. Without a scheme (`127.0.0.1:8080`) it is a
 * mistake on the command line, not an agent that fails to be A2A: say so, with the fix.
 */
function checkUrl(url: string | undefined, command: HelpTopic): void {
  if (url === undefined) throw new UsageError('missing URL', command);
  if (/^https?:\/\/[^/]/i.test(url)) return;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(url)?.[1];
  if (scheme) throw new UsageError(`URL must start with http:// or https:// (got "${url}": the agent card is fetched over HTTP)`, command);
  throw new UsageError(`URL must start with http:// or https:// (got "${url}"; did you mean http://${url}?)`, command);
}

/**
 * `a2a lite <parse|format|run> …`. `format` takes its arguments as `formatLiteArgs` does
 * (`TYPE key=value … [-- body…]`), so only `-h`/`--help` before `--` is an option there; body
 * words after `--` may start with a dash.
 */
function parseLiteCommand(argv: readonly string[], env: NodeJS.ProcessEnv): Parsed {
  const sub = argv[0];
  if (sub === undefined || sub === '--help' || sub === '-h') return { kind: 'help', command: 'lite' };
  if (!LITE_SUBCOMMANDS.includes(sub as LiteSubcommand)) {
    throw new UsageError(`unknown lite command "${sub}" (lite commands: ${LITE_SUBCOMMANDS.join(', ')})`, 'lite');
  }
  const topic = `lite ${sub as LiteSubcommand}` as const;
  const rest = argv.slice(1);
  const noCommon: CommonOptions = { headers: {}, json: true, timeoutMs: DEFAULT_TIMEOUT_S * 1000 };
  if (sub === 'format') {
    const dash = rest.indexOf('--');
    const head = dash < 0 ? rest : rest.slice(0, dash);
    if (head.some((a) => a === '--help' || a === '-h')) return { kind: 'help', command: topic };
    const option = head.find((a) => a.startsWith('-'));
    if (option !== undefined) throw new UsageError(`unknown option ${option} (put body words that start with "-" after --)`, topic);
    if (rest.length === 0 || dash === 0) throw new UsageError('missing TYPE', topic);
    return { kind: 'command', command: 'lite', positionals: [sub, ...rest], common: noCommon, values: {} };
  }
  const options = sub === 'run' ? LITE_RUN_OPTIONS : { help: COMMON.help };
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...rest], options, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\. To specify a positional argument.*$/s, ''), topic);
  }
  const { values, positionals } = parsed;
  if (values.help) return { kind: 'help', command: topic };
  const wanted = sub === 'run' ? ['URL', 'TEXT'] : [];
  const allowed = sub === 'run' ? 2 : 1;
  if (positionals.length < wanted.length) throw new UsageError(`missing ${wanted.slice(positionals.length).join(' and ')}`, topic);
  if (positionals.length > allowed)
    throw new UsageError(
      `unexpected argument${positionals.length - allowed > 1 ? 's' : ''}: ${positionals.slice(allowed).join(' ')} (quote the message text)`,
      topic,
    );
  if (sub === 'run') checkUrl(positionals[0], topic);
  return { kind: 'command', command: 'lite', positionals: [sub, ...positionals], common: sub === 'run' ? common(values, topic, env) : noCommon, values };
}

function common(values: Record<string, unknown>, command: HelpTopic, env: NodeJS.ProcessEnv): CommonOptions {
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
  const token = (values.token as string | undefined) ?? (env.A2A_TOKEN || undefined);
  const apiKey = env.A2A_API_KEY || undefined;
  return { binding, headers, token, apiKey, json: values.json === true, timeoutMs };
}

/** A non-negative integer option, or a usage error naming it. */
export function intOption(values: Record<string, unknown>, name: string, command: CommandName): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  if (typeof raw !== 'string' || !/^\d+$/.test(raw)) throw new UsageError(`--${name} must be a non-negative integer (got "${String(raw)}")`, command);
  return Number(raw);
}
