import { createLocalJWKSet, type JSONWebKeySet } from 'jose';

/** Why the key set could not be had (the provider is down, slow, or answers something else): the caller is told Unavailable. */
export class JwksUnavailableError extends Error {
  override readonly name = 'JwksUnavailableError';
}

/** Bounds of one {@link fetchJwks}. */
export interface FetchJwksLimits {
  /** Deadline for the whole exchange: connecting, the status line, and every byte of the body. */
  readonly timeoutMs: number;
  /** Largest body read; a longer one (declared or sent) is cut off unread. */
  readonly maxBytes: number;
}

/**
 * Fetches a JWK Set within a deadline and a byte cap, and checks it is one. Written here
 * rather than left to jose's `createRemoteJWKSet` because jose 5 bounds only the wait for the
 * response headers: a provider that sends its status and then stalls, or trickles a byte at a
 * time, held every request forever, a huge body was read whole into memory, and a 500, a
 * redirect or a non-JSON body came back as a token error (401) instead of "keys unavailable".
 * One `AbortSignal.timeout` covers connect, headers and body alike (fetch errors the body
 * stream when it fires); redirects are refused, not followed (the configured URL is the
 * provider's).
 *
 * @throws JwksUnavailableError saying what went wrong.
 */
export async function fetchJwks(url: URL, limits: FetchJwksLimits): Promise<JSONWebKeySet> {
  const signal = AbortSignal.timeout(limits.timeoutMs);
  const fail = (what: string, cause?: unknown): JwksUnavailableError =>
    new JwksUnavailableError(signal.aborted ? `no complete answer within ${limits.timeoutMs} ms` : what, { cause });
  let response: Response;
  try {
    response = await fetch(url, { signal, redirect: 'manual', headers: { accept: 'application/json' } });
  } catch (error) {
    throw fail('unreachable', error);
  }
  if (response.status !== 200) {
    await response.body?.cancel().catch(() => undefined);
    throw fail(`answered HTTP ${response.status}`);
  }
  let text: string;
  try {
    text = await readCapped(response, limits.maxBytes);
  } catch (error) {
    throw error instanceof JwksUnavailableError ? error : fail('the answer broke off', error);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw fail('the answer is not JSON');
  }
  try {
    createLocalJWKSet(json as JSONWebKeySet); // jose's own check of the shape ({ keys: [ {…}, … ] })
  } catch {
    throw fail('the answer is not a JWK Set');
  }
  return json as JSONWebKeySet;
}

/** The body as text, refusing (and cancelling) one over `maxBytes` before holding more than that. */
async function readCapped(response: Response, maxBytes: number): Promise<string> {
  const tooLarge = () => new JwksUnavailableError(`the answer is larger than ${maxBytes} bytes`);
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  const reader = response.body?.getReader();
  if (!reader) return '';
  if (declared > maxBytes) {
    await reader.cancel().catch(() => undefined);
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
