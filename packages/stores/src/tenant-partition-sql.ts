import type { TenantPartition } from '@a2a-polyglot/core';

/** The three parameters of {@link partitionCondition}: prefix, except prefix, keep prefix (null: unset). */
export type PartitionParams = [string | null, string | null, string | null];

/** The values of a partition's parameters, '' counting as unset as in core's `inTenantPartition`. */
export function partitionParams(partition: TenantPartition | undefined): PartitionParams {
  return [partition?.prefix || null, partition?.exceptPrefix || null, partition?.keepPrefix || null];
}

/**
 * The SQL condition of core's `inTenantPartition` over the `tenant` column, for one static
 * statement whatever the partition: `names` are the dialect's three parameters (in the order
 * of {@link partitionParams}) and `startsWith(param)` the dialect's prefix test of `tenant`.
 * One rule for SQLite and PostgreSQL; an exact prefix comparison, not LIKE, so no character of
 * a tenant needs escaping.
 */
export function partitionCondition(names: readonly [string, string, string], startsWith: (param: string) => string): string {
  const [prefix, except, keep] = names;
  return `(${prefix} IS NULL OR ${startsWith(prefix)}) AND (${except} IS NULL OR NOT ${startsWith(except)} OR (${keep} IS NOT NULL AND ${startsWith(keep)}))`;
}
