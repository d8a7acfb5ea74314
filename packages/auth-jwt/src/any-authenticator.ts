import { A2AError, A2AErrorCode, type Authenticator, type CallContext, type Principal } from '@a2a-polyglot/core';

/**
 * Accepts a caller any of `authenticators` accepts, tried in order (e.g. JWTs from the
 * identity provider, and static API keys for a service that has no provider account). When
 * all refuse, the caller is told the first refusal that is not about its credentials (an
 * unreachable provider is Unavailable, so the client retries), else the first refusal.
 */
export function anyAuthenticator(...authenticators: readonly Authenticator[]): Authenticator {
  const [only] = authenticators;
  if (authenticators.length === 1 && only) return only;
  return {
    async authenticate(ctx: CallContext): Promise<Principal> {
      const refusals: unknown[] = [];
      for (const authenticator of authenticators) {
        try {
          return await authenticator.authenticate(ctx);
        } catch (error) {
          refusals.push(error);
        }
      }
      const notCredentials = refusals.find((e) => !(e instanceof A2AError && e.code === A2AErrorCode.Unauthenticated));
      throw notCredentials ?? refusals[0] ?? new A2AError(A2AErrorCode.Unauthenticated);
    },
  };
}
