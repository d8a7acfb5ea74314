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
  readonly kind: 'server-error' | 'slow' | 'leak' | 'no-answer' | 'crash' | 'memory';
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
