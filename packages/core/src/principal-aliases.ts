import type { Authenticator, Principal } from './auth.js';
import type { CallContext } from './call-context.js';

/**
 * Maps principal ids to a shared identity, by explicit configuration only (e.g.
 * `{ 'jwt:https://idp.example#alice': 'key:alice' }` lets alice's JWT own the tasks of her API
 * key). A principal whose id is not in `aliases` keeps its own id; an aliased one keeps the id
 * it authenticated as in `attributes.authenticatedAs`, for logs.
 */
export function withPrincipalAliases(authenticator: Authenticator, aliases: Readonly<Record<string, string>>): Authenticator {
  const map = new Map(Object.entries(aliases));
  if (map.size === 0) return authenticator;
  return {
    async authenticate(ctx: CallContext): Promise<Principal> {
      const principal = await authenticator.authenticate(ctx);
      const shared = map.get(principal.id);
      return shared === undefined ? principal : { id: shared, attributes: { ...principal.attributes, authenticatedAs: principal.id } };
    },
  };
}
