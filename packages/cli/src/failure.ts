import { clientFailureOf, type BindingKey } from '@a2a-polyglot/client';
import { A2AError, A2AErrorCode, ERROR_TABLE, GrpcStatus } from '@a2a-polyglot/core';
import { UsageError } from './args.js';
import { EXIT, type ExitCode } from './exit-codes.js';

/** How an error is shown (one line, no stack) and which exit code it gives. */
export function describeFailure(error: unknown, binding: BindingKey | undefined): { line: string; code: ExitCode } {
  if (error instanceof UsageError)
    return { line: `${error.message}\nRun 'a2a ${error.command ?? ''}${error.command ? ' ' : ''}--help' for usage.`, code: EXIT.usage };
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
    default:
      return { line: `the agent answered ${error.code} (${wireCode(error, binding)}): ${error.message}${HINTS[error.code] ?? ''}`, code: EXIT.agentError };
  }
}

/** What to do about an agent error the user can fix from the command line. */
const HINTS: Partial<Record<A2AErrorCode, string>> = {
  [A2AErrorCode.Unauthenticated]:
    "\nThe agent wants credentials: pass --token TOKEN (sent as a bearer token) or --header 'Name: value' (an API key header; the card's security schemes name it).",
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
