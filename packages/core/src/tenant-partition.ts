/**
 * A set of stored tenants named by prefixes: the tenants starting with `prefix`, minus those
 * starting with `exceptPrefix` unless they also start with `keepPrefix`. Several parties that
 * share one store (the executor's mounted agents) each map their tenants into one such set,
 * and a store query that takes it (the sweep's `abandoned`) reads only that party's rows
 * instead of everyone's: filtering after a limited query would starve a party whose rows sit
 * behind more than `limit` rows of the others.
 *
 * Three prefixes, because a namespace that escapes its mark by doubling it (agent `b`'s tenants
 * are `@b/…`; the default agent keeps its tenants, and stores its own `@…` as `@@…`) needs
 * "not `@`, or `@@`" for the unprefixed party: `{ exceptPrefix: '@', keepPrefix: '@@' }`,
 * while a prefixed party is `{ prefix: '@b/' }`. Every condition is a prefix test, which each
 * store evaluates on the rows it reads in lease order (SQL `starts_with`/`substr`, DynamoDB
 * `begins_with` on the key), so no party's rows ever reach another party's process.
 */
export interface TenantPartition {
  /** Only tenants starting with this (unset or '': every tenant). */
  readonly prefix?: string;
  /** Leaves out tenants starting with this (unset: none is left out)... */
  readonly exceptPrefix?: string;
  /** ...unless they start with this (the escaped form of `exceptPrefix`; unset: no exception). */
  readonly keepPrefix?: string;
}

/** True when `tenant` is in `partition` (every tenant when `partition` is undefined): the rule every store applies. */
export function inTenantPartition(tenant: string, partition: TenantPartition | undefined): boolean {
  if (partition === undefined) return true;
  const { prefix, exceptPrefix, keepPrefix } = partition;
  if (prefix && !tenant.startsWith(prefix)) return false;
  if (!exceptPrefix || !tenant.startsWith(exceptPrefix)) return true;
  return keepPrefix !== undefined && keepPrefix !== '' && tenant.startsWith(keepPrefix);
}
