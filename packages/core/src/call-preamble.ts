/**
 * The preamble every operation but card discovery runs before its own work (version,
 * extensions, rate limits, authentication, tenant) and the capability checks of the optional
 * features: apart from the `RequestHandler` so the operations and the run start share one
 * copy and the handler keeps to dispatching.
 * @internal
 */
import type { AgentCard } from '@a2a-polyglot/model';
import { A2AError, errors } from './a2a-error.js';
import type { Authenticator, Principal } from './auth.js';
import type { BindingName, CallContext } from './call-context.js';
import { A2AErrorCode } from './error-code.js';
import type { CallObserver } from './observer.js';
import { addressBudgetKey, type RateLimiter } from './rate-limit.js';
import type { Caller } from './request-handler-helpers.js';
import { checkVersion, negotiateExtensions } from './request-validation.js';

/** What the preamble reads of the handler's options (`RequestHandlerOptions` has them all). */
export interface PreambleOptions {
  readonly card: AgentCard;
  readonly authenticator?: Authenticator;
  readonly rateLimiter?: RateLimiter;
  /** Serve the experimental A2A 1.1 (`RequestHandlerOptions.experimental11`). */
  readonly experimental11?: boolean;
  readonly observer?: CallObserver;
}

/**
 * Spends the address point of a request that has just arrived, before its binding reads,
 * parses or validates anything of it, so a malformed, oversize or unknown request costs its
 * sender a point like a good one, and a client over its budget makes the server decode
 * nothing. The binding then marks the request's (first) call context `addressCharged`, and
 * {@link beginCall} spends no second point for it. Undefined, synchronously, when no address
 * budget applies (no rate limiter, or no address: in-process calls): nothing to wait for.
 * A refusal rejects with the RateLimited error and is reported to the observer
 * (`requestRefused`), as no operation will see it.
 */
export function chargeArrival(options: PreambleOptions, binding: BindingName, remoteAddress: string | undefined): Promise<void> | undefined {
  const limiter = options.rateLimiter;
  if (!limiter || !remoteAddress) return undefined;
  return limiter.consume('address', addressBudgetKey(remoteAddress)).catch((thrown: unknown) => {
    const error = A2AError.from(thrown);
    if (error.code === A2AErrorCode.RateLimited) options.observer?.requestRefused?.(binding, error);
    throw error;
  });
}

/**
 * The preamble of one call: version, extensions, rate limits and authentication, tenant.
 * Answers synchronously (or throws) when there is neither an authenticator nor a rate
 * limiter: no promise on that path. Only async methods call it, so a throw here still
 * reaches the caller as a rejection.
 */
export function beginCall(options: PreambleOptions, ctx: CallContext, requestTenant: string): Caller | Promise<Caller> {
  const version = checkVersion(ctx, options.experimental11);
  const extensions = negotiateExtensions(ctx, options.card);
  const tenant = ctx.pathTenant ?? requestTenant ?? '';
  if (!options.authenticator && !options.rateLimiter) return { principal: undefined, owner: undefined, tenant, extensions, version };
  return admit(options, ctx).then((principal) => ({ principal, owner: principal?.id, tenant, extensions, version }));
}

/**
 * Rate limits and authentication of one call: the address budget is spent before
 * authentication (so bad credentials are limited too; unless the binding spent it on the
 * request's arrival, {@link chargeArrival}), the identity budget after it.
 */
async function admit(options: PreambleOptions, ctx: CallContext): Promise<Principal | undefined> {
  const limiter = options.rateLimiter;
  if (limiter && ctx.remoteAddress && !ctx.addressCharged) await limiter.consume('address', addressBudgetKey(ctx.remoteAddress));
  const principal = options.authenticator ? await options.authenticator.authenticate(ctx) : undefined;
  if (limiter && principal) await limiter.consume('identity', principal.id);
  return principal;
}

/** UnsupportedOperation unless the card declares `capabilities.streaming`. */
export function requireStreaming(card: AgentCard): void {
  if (!card.capabilities?.streaming) throw errors.unsupported('This agent does not support streaming');
}

/** PushNotificationNotSupported unless the card declares `capabilities.pushNotifications`. */
export function requirePush(card: AgentCard): void {
  if (!card.capabilities?.pushNotifications) throw new A2AError(A2AErrorCode.PushNotificationNotSupported);
}
