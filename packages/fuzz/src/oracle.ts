/**
 * What counts as a finding. One set of rules for every binding, so a binding cannot pass by
 * being judged more leniently than another:
 * - a server failure: HTTP 5xx, gRPC INTERNAL or UNKNOWN, JSON-RPC -32603 (anywhere in the
 *   answer, stream events included), a WebSocket closed with 1011;
 * - an answer slower than {@link SLOW_ANSWER_MS};
 * - a stack trace or a file path in the answer that the request did not put there (the demo
 *   agent echoes its input, so reflected text is not a leak).
 */

/** Any answer slower than this is a finding. */
export const SLOW_ANSWER_MS = 5000;

/** One thing the fuzzer saw go wrong, with what provoked it. */
export interface Finding {
  readonly binding: string;
  readonly kind: 'server-error' | 'slow' | 'leak' | 'no-answer' | 'crash' | 'memory' | 'oversize';
  readonly detail: string;
  /** The request, abbreviated. */
  readonly input: string;
}

/**
 * Text that gives internals away: stack frames (`at fn (file:1:2)`, `at file:1:2`), source
 * and module paths, Node's error prefixes on their own line.
 */
const LEAK_PATTERNS: readonly RegExp[] = [
  /\bat (?:async )?[\w$.<>[\] ]*\(?(?:file:\/\/)?[\w./\\-]+\.(?:[cm]?js|ts):\d+:\d+\)?/g,
  /(?:\/(?:home|root|usr|srv|opt|tmp|var|work|Users)\/[\w.-]+\/|[A-Za-z]:\\[\w.-]+\\)[\w./\\-]*/g,
  /\bnode_modules\/[\w@./-]+/g,
  /\b[\w/.-]+\.(?:ts|[cm]?js):\d+(?::\d+)?\b/g,
];

/** The leaked fragments of `answer` that `request` did not itself contain. */
export function leaks(answer: string, request: string): string[] {
  const found: string[] = [];
  for (const pattern of LEAK_PATTERNS) {
    for (const match of answer.matchAll(pattern)) if (!request.includes(match[0])) found.push(match[0]);
  }
  return found;
}

/** JSON-RPC "internal error" anywhere in a JSON or SSE answer. */
export function hasInternalJsonRpcError(answer: string): boolean {
  return /"code"\s*:\s*-32603\b/.test(answer);
}

/** Shortens an input or answer for a report line. */
export function abbreviate(text: string, max = 300): string {
  const flat = JSON.stringify(text);
  return flat.length <= max ? flat : `${flat.slice(0, max)}… (${text.length} chars)`;
}

/**
 * Most bytes of an error answer, whatever the request carried: an error quotes at most a
 * short prefix of the offending input (a 3 MB role must not come back as a 6 MB error).
 */
export const MAX_ERROR_ANSWER_BYTES = 16 * 1024;

/**
 * Most bytes of any answer to a heavy send, relative to the request: the demo agent echoes its
 * input, so a task holds the message and its echo, and a stream carries the task and the echo's
 * chunks; four times the request plus a fixed allowance covers that, and nothing that grows
 * faster than the input passes.
 */
export function maxHeavyAnswerBytes(requestBytes: number): number {
  return 4 * requestBytes + 64 * 1024;
}

/**
 * Why an answer is too large, or undefined when it is not: an error answer past
 * {@link MAX_ERROR_ANSWER_BYTES}, or (for a heavy send, `requestBytes` given) any answer past
 * {@link maxHeavyAnswerBytes}.
 */
export function oversizedAnswer(answerBytes: number, isError: boolean, requestBytes?: number): string | undefined {
  if (isError && answerBytes > MAX_ERROR_ANSWER_BYTES) return `an error answer of ${answerBytes} bytes (at most ${MAX_ERROR_ANSWER_BYTES})`;
  if (requestBytes !== undefined && answerBytes > maxHeavyAnswerBytes(requestBytes))
    return `an answer of ${answerBytes} bytes to a ${requestBytes}-byte request (at most ${maxHeavyAnswerBytes(requestBytes)})`;
  return undefined;
}

/** True when a JSON (not SSE) answer text is a JSON-RPC error object (read from its first bytes only). */
export function isJsonRpcErrorText(text: string): boolean {
  return /^\s*\{[^{}]{0,200}"error"\s*:/.test(text.slice(0, 256));
}
