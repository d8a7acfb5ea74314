import { abbreviate, hasInternalJsonRpcError, isJsonRpcErrorText, leaks, oversizedAnswer, SLOW_ANSWER_MS, type Finding } from './oracle.js';

/** One HTTP request as a fuzzer sends it. */
export interface HttpInput {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string | Uint8Array;
  /** A heavy send of the resource oracle: its answer is also bounded relative to the request. */
  readonly heavy?: boolean;
}

/**
 * Sends `input`, reads the whole answer (an SSE stream to its end) and judges it: 5xx,
 * JSON-RPC -32603, leaked stacks or paths, slower than {@link SLOW_ANSWER_MS}, no answer, an
 * answer larger than the oracle allows (`oversizedAnswer`).
 */
export async function exchangeAndJudge(binding: string, input: HttpInput): Promise<Finding[]> {
  const bodyText = typeof input.body === 'string' ? input.body : input.body ? Buffer.from(input.body).toString('latin1') : '';
  // A heavy request is abbreviated before it is quoted or searched: its megabytes hold no leak.
  const request = `${input.method} ${input.url} ${JSON.stringify(input.headers)} ${input.heavy ? bodyText.slice(0, 2000) : bodyText}`;
  const finding = (kind: Finding['kind'], detail: string): Finding => ({ binding, kind, detail, input: abbreviate(request) });
  const started = performance.now();
  let status: number;
  let text: string;
  let contentType: string;
  const send = () =>
    fetch(input.url, {
      method: input.method,
      headers: input.headers,
      body: input.method === 'GET' || input.method === 'HEAD' ? undefined : input.body,
      signal: AbortSignal.timeout(SLOW_ANSWER_MS + 2000),
    });
  try {
    let response: Response;
    try {
      response = await send();
    } catch (error) {
      // A request written onto a pooled keep-alive connection just as the server's idle timer
      // closed it fails before the server saw it ("fetch failed", other side closed): sent once
      // more on a fresh connection. A server that really drops the request fails the second
      // time too, and that is the finding; a timeout is not retried.
      if ((error as Error).name === 'TimeoutError') throw error;
      response = await send();
    }
    status = response.status;
    contentType = response.headers.get('content-type') ?? '';
    text = await response.text();
  } catch (error) {
    return [finding('no-answer', `${(error as Error).name}: ${(error as Error).message}`)];
  }
  const ms = performance.now() - started;
  const findings: Finding[] = [];
  if (status >= 500) findings.push(finding('server-error', `HTTP ${status}: ${abbreviate(text, 200)}`));
  if (hasInternalJsonRpcError(text)) findings.push(finding('server-error', `JSON-RPC -32603: ${abbreviate(text, 200)}`));
  const answerBytes = Buffer.byteLength(text);
  const isError = status >= 400 || (!contentType.startsWith('text/event-stream') && isJsonRpcErrorText(text));
  const oversized = oversizedAnswer(answerBytes, isError, input.heavy ? Buffer.byteLength(bodyText, 'latin1') : undefined);
  if (oversized) findings.push(finding('oversize', `${oversized}: ${abbreviate(text.slice(0, 400), 200)}`));
  const leaked = leaks(text, request);
  if (leaked.length > 0) findings.push(finding('leak', leaked.slice(0, 3).join(' | ')));
  if (ms > SLOW_ANSWER_MS) findings.push(finding('slow', `${Math.round(ms)} ms`));
  return findings;
}
