import ipaddr from 'ipaddr.js';
import { A2AError } from './a2a-error.js';
import { A2AErrorCode } from './error-code.js';

/**
 * Which budget a request is counted against: the client's network address (checked before
 * authentication, so floods of bad credentials are limited too), or the authenticated
 * principal (checked after it, so one identity cannot spread its load over many addresses).
 */
export type RateLimitScope = 'address' | 'identity';

/**
 * The rate-limit seam. The {@link RequestHandler} calls it for every request (agent-card
 * discovery excepted): the address budget as the request arrives, before the binding reads
 * it (`RequestHandler.chargeArrival`), the identity budget in each operation's preamble. So
 * every binding is limited by the same rule and answers the refusal in its own terms through
 * the error table (HTTP 429 + `Retry-After`, a JSON-RPC or WebSocket error frame, gRPC
 * RESOURCE_EXHAUSTED). The core holds no counters: an
 * implementation (the server package's, over `rate-limiter-flexible`) decides where budgets
 * live (memory, or Redis to share them across instances).
 */
export interface RateLimiter {
  /**
   * Counts one request against `key`'s budget in `scope`. Resolves when admitted; rejects
   * with {@link rateLimited} when the budget is spent.
   */
  consume(scope: RateLimitScope, key: string): Promise<void>;
}

/** The ErrorInfo metadata key carrying how long to wait, in whole seconds (HTTP `Retry-After`). */
export const RETRY_AFTER_METADATA_KEY = 'retryAfterSeconds';

/**
 * The one refusal of a rate limit: RateLimited, with the wait (rounded up to whole seconds,
 * at least 1, as `Retry-After` needs) and the scope in the ErrorInfo metadata, so every
 * binding and client reads the same figures.
 */
export function rateLimited(scope: RateLimitScope, retryAfterMs: number): A2AError {
  const seconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new A2AError(A2AErrorCode.RateLimited, `Rate limit exceeded for this ${scope === 'address' ? 'client address' : 'identity'}; retry in ${seconds} s`, {
    metadata: { [RETRY_AFTER_METADATA_KEY]: String(seconds), scope },
  });
}

/**
 * The seconds an error asks the client to wait, for the HTTP bindings' `Retry-After` header:
 * a RateLimited error's (at least 1), a ResourceExhausted error's when it carries the hint (a
 * concurrency cap of the `RequestHandler`); undefined for every other error.
 */
export function retryAfterSeconds(error: A2AError): number | undefined {
  if (error.code !== A2AErrorCode.RateLimited && error.code !== A2AErrorCode.ResourceExhausted) return undefined;
  const raw = error.metadata[RETRY_AFTER_METADATA_KEY];
  if (error.code === A2AErrorCode.ResourceExhausted && raw === undefined) return undefined;
  const seconds = Number(raw);
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds) : 1;
}

/**
 * The per-address budget a client address spends: an IPv4 address (an IPv4-mapped IPv6
 * address counts as the IPv4 one, so a dual-stack listener does not give one client two
 * budgets), or the /64 network of an IPv6 address, since one host usually holds a whole /64
 * and could otherwise take a fresh budget per address. Text that is not an address is its
 * own key.
 */
export function addressBudgetKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return ip.toString();
  return `${ipaddr.IPv6.networkAddressFromCIDR(`${ip.toString()}/64`).toString()}/64`;
}
