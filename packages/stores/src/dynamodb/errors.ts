import { A2AError } from '@a2a-polyglot/core';
import { unavailable } from '../errors.js';

const SERVICE = 'task store (DynamoDB)';

/** Error names that mean "DynamoDB is there but cannot take this request now": retry later. */
const RETRYABLE = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'LimitExceededException',
  'TimeoutError',
]);

/**
 * Maps an AWS SDK failure the way `pgError` maps `pg` ones: no HTTP response at all (network,
 * timeout), a server-side fault or throttling becomes Unavailable (503, retry later); a
 * request DynamoDB refuses (validation, missing table, item too large) is a bug or a
 * misconfiguration here and becomes Internal. The SDK error stays in `cause`, for the logs.
 */
export function dynamoError(error: unknown): A2AError {
  if (error instanceof A2AError) return error;
  const e = error as { name?: unknown; $fault?: unknown; $metadata?: { httpStatusCode?: unknown } } | undefined;
  const status = e?.$metadata?.httpStatusCode;
  if (typeof status !== 'number' || e?.$fault === 'server' || RETRYABLE.has(String(e?.name))) return unavailable(SERVICE, error);
  return A2AError.from(error);
}

/** True when DynamoDB refused a write because its condition (version, lease, absence) failed. */
export function isConditionFailed(error: unknown): boolean {
  return (error as { name?: unknown } | undefined)?.name === 'ConditionalCheckFailedException';
}

/** Runs one DynamoDB call, mapping its failure with {@link dynamoError}. */
export async function guardedDynamo<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw dynamoError(error);
  }
}
