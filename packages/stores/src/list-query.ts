import { A2AError, A2AErrorCode, decodePageToken, type TaskQuery } from '@a2a-polyglot/core';

/** The WHERE clause of a ListTasks query, with its parameters, in one SQL dialect. */
export interface ListFilter {
  /** Conditions of every row counted in `totalSize`. */
  readonly where: string;
  readonly params: unknown[];
  /** `where` plus the cursor condition: the rows of this page and after. */
  readonly pageWhere: string;
  readonly pageParams: unknown[];
}

/**
 * The sort key a ListTasks page token carries, or InvalidParams for a token this server did
 * not issue: one rule for every durable store.
 */
export function pageCursor(token: string): { timestamp: string; id: string } {
  const cursor = decodePageToken(token);
  if (!cursor) {
    throw new A2AError(A2AErrorCode.InvalidParams, 'Invalid pageToken', {
      fieldViolations: [{ field: 'pageToken', description: 'not a token this server issued' }],
    });
  }
  return cursor;
}

/**
 * Builds the ListTasks filter exactly as the in-memory store applies it: tenant always; owner
 * when set; contextId and the state when given; status timestamp ≥ `statusTimestampAfter`
 * (string order, like the in-memory store); and for a page token, the rows strictly after the
 * cursor in (status timestamp desc, id desc) order. `placeholder(n)` renders parameter n
 * (1-based) in the dialect: `$n` for PostgreSQL, `?` for SQLite.
 */
export function listFilter(query: TaskQuery, placeholder: (n: number) => string): ListFilter {
  const conditions: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (p: string) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(placeholder(params.length)));
  };
  add((p) => `tenant = ${p}`, query.tenant);
  if (query.owner !== undefined) add((p) => `owner = ${p}`, query.owner);
  if (query.contextId) add((p) => `context_id = ${p}`, query.contextId);
  if (query.state !== undefined) add((p) => `state = ${p}`, query.state);
  if (query.statusTimestampAfter) add((p) => `status_ts >= ${p}`, query.statusTimestampAfter);
  const where = conditions.join(' AND ');
  if (!query.pageToken) return { where, params, pageWhere: where, pageParams: params };
  const cursor = pageCursor(query.pageToken);
  const pageParams = [...params, cursor.timestamp, cursor.timestamp, cursor.id];
  const [a, b, c] = [params.length + 1, params.length + 2, params.length + 3].map(placeholder);
  return { where, params, pageWhere: `${where} AND (status_ts < ${a} OR (status_ts = ${b} AND id < ${c}))`, pageParams };
}
