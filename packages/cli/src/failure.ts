import { clientFailureOf, type BindingKey } from '@a2a-polyglot/client';
import { A2AError, A2AErrorCode, ERROR_TABLE, GrpcStatus } from '@a2a-polyglot/core';
import { UsageError } from './args.js';
import { EXIT, type ExitCode } from './exit-codes.js';

/** How a failure is shown: one line (no stack), the exit code it gives, and, for `--json`, the A2A error code. */
export interface Failure {
  readonly line: string;
  /** What to do about it, on lines of its own after `line` (human output only). */
  readonly hint?: string;
  readonly code: ExitCode;
  /** The A2A error code (`TASK_NOT_FOUND`) and how the binding carried it, for an agent error. */
  readonly a2a?: { readonly code: A2AErrorCode; readonly wire: string };
}

/**
 * How an error is shown (one line, no stack) and which exit code it gives. `invocation` is
 * how the user ran the CLI (`npx a2a`), for the pointer to `--help`.
 */
export function describeFailure(error: unknown, binding: BindingKey | undefined, invocation = 'a2a'): Failure {
  if (error instanceof UsageError)
    return { line: error.message, hint: `\nRun '${invocation} ${error.command ?? ''}${error.command ? ' ' : ''}--help' for usage.`, code: EXIT.usage };
  if (!(error instanceof A2AError))
    return { line: `unexpected failure: ${error instanceof Error ? error.message : String(error)}`, code: EXIT.taskUnsuccessful };
  switch (clientFailureOf(error)) {
    case 'aborted':
      return { line: 'interrupted', code: EXIT.interrupted };
    case 'unreachable':
    case 'timeout':
    case 'idle':
    case 'cut':
      return { line: sentence(error.message), code: EXIT.unreachable };
    case 'not-a2a':
    case 'bad-card':
      return { line: sentence(error.message), code: EXIT.notA2A };
    default: {
      const wire = wireCode(error, binding);
      return {
        line: `the agent answered ${error.code} (${wire}): ${error.message}`,
        hint: HINTS[error.code],
        code: EXIT.agentError,
        a2a: { code: error.code, wire },
      };
    }
  }
}

/** What to do about an agent error the user can fix from the command line. */
const HINTS: Partial<Record<A2AErrorCode, string>> = {
  [A2AErrorCode.Unauthenticated]:
    "\nThe agent wants credentials: pass --token TOKEN (sent as a bearer token) or --header 'Name: value' (an API key header; the card's security schemes name it), or set A2A_TOKEN or A2A_API_KEY.",
};

/** The error's code as the binding carried it: JSON-RPC code, HTTP status or gRPC status. */
function wireCode(error: A2AError, binding: BindingKey | undefined): string {
  const row = ERROR_TABLE[error.code];
  switch (binding) {
    case 'rest':
      return `HTTP ${row.http}`;
    case 'grpc':
      return `gRPC ${GrpcStatus[row.grpc]}`;
    default:
      return `JSON-RPC ${row.jsonRpc}`;
  }
}

/** Lower-cases the first letter of a message that starts a sentence ("Cannot reach" → "cannot reach"). */
function sentence(message: string): string {
  return /^[A-Z][a-z]/.test(message) ? message.charAt(0).toLowerCase() + message.slice(1) : message;
}

/**
 * The failure as the one JSON object `--json` prints on stdout, so a script reading stdout
 * gets a document it can parse on failure too: `{"error": {"message", "exitCode", "code"?,
 * "wireCode"?, "problems"?}}`. `message` is the line without its hint.
 */
export function failureJson(failure: Failure, problems?: readonly unknown[]): { error: Record<string, unknown> } {
  return {
    error: {
      message: failure.line,
      exitCode: failure.code,
      ...(failure.a2a && { code: failure.a2a.code, wireCode: failure.a2a.wire }),
      ...(problems && { problems }),
    },
  };
}
