import { formatLite, LiteError } from './codec.js';

/**
 * The command-line form of {@link formatLite}, as the skill's `format_message.sh` takes it:
 * `<type> [key=value …] [-- body words…]`. Lets a CLI (`a2a lite format …`) stay a one-liner.
 * Body words after `--` are joined with spaces; a value may contain `=` after the first one.
 */
export function formatLiteArgs(argv: readonly string[]): string {
  const [type, ...rest] = argv;
  if (!type) throw new LiteError('Usage: <type> [key=value …] [-- body…]');
  const dash = rest.indexOf('--');
  const pairs = dash < 0 ? rest : rest.slice(0, dash);
  const body = dash < 0 ? '' : rest.slice(dash + 1).join(' ');
  const params: Record<string, string> = {};
  for (const pair of pairs) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new LiteError(`Expected key=value, got ${JSON.stringify(pair)} (put the body after --)`);
    params[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  return formatLite(type, params, body);
}
