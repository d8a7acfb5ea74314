import type { TaskQuery } from '@a2a-polyglot/core';
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { pageCursor } from '../list-query.js';
import { ATTR, contextKey, INDEX, listSortKey, stateKey, tenantKey } from './schema.js';

/** One DynamoDB Query of ListTasks: which index, which key range, which filters. */
export interface ListPlan {
  readonly index: string;
  /** Conditions of every item counted in `totalSize`. */
  readonly keyCondition: string;
  readonly filter?: string;
  readonly names: Record<string, string>;
  readonly values: Record<string, AttributeValue>;
  /** The same Query narrowed to the items after the cursor (the page); undefined: the page is empty. */
  readonly page: { readonly keyCondition: string; readonly values: Record<string, AttributeValue> } | undefined;
  /** Sort key of the cursor item itself, dropped from the page (BETWEEN is inclusive). */
  readonly exclude?: string;
}

/**
 * Plans ListTasks exactly as `listFilter` does in SQL: tenant always; the narrowest index for
 * the filters given (context, else state, else the tenant); state and owner as filters when
 * the index does not already fix them; `statusTimestampAfter` and the page cursor as a range
 * of the sort key (see `schema.ts` for why that range is the SQL comparison). The page is
 * `undefined` when its range is empty (a cursor older than `statusTimestampAfter`).
 */
export function listPlan(query: TaskQuery): ListPlan {
  const names: Record<string, string> = { '#p': '', '#k': ATTR.listSort };
  const values: Record<string, AttributeValue> = {};
  const filters: string[] = [];
  let index: string;
  if (query.contextId) {
    index = INDEX.context;
    names['#p'] = ATTR.contextKey;
    values[':p'] = { S: contextKey(query.tenant, query.contextId) };
    if (query.state !== undefined) {
      names['#state'] = 'state';
      values[':state'] = { N: String(query.state) };
      filters.push('#state = :state');
    }
  } else if (query.state !== undefined) {
    index = INDEX.state;
    names['#p'] = ATTR.stateKey;
    values[':p'] = { S: stateKey(query.tenant, query.state) };
  } else {
    index = INDEX.tenant;
    names['#p'] = ATTR.tenantKey;
    values[':p'] = { S: tenantKey(query.tenant) };
  }
  if (query.owner !== undefined) {
    names['#owner'] = 'owner';
    values[':owner'] = { S: query.owner };
    filters.push('#owner = :owner');
  }
  const after = query.statusTimestampAfter || undefined;
  if (after) values[':after'] = { S: after };
  const keyCondition = after ? '#p = :p AND #k >= :after' : '#p = :p';
  const filter = filters.length > 0 ? filters.join(' AND ') : undefined;
  const base = { index, keyCondition, filter, names, values };
  if (!query.pageToken) return { ...base, page: { keyCondition, values } };

  const cursor = pageCursor(query.pageToken);
  const before = listSortKey(cursor.timestamp, cursor.id);
  if (!after) return { ...base, page: { keyCondition: '#p = :p AND #k < :before', values: { ...values, ':before': { S: before } } } };
  if (before < after) return { ...base, page: undefined };
  return { ...base, page: { keyCondition: '#p = :p AND #k BETWEEN :after AND :before', values: { ...values, ':before': { S: before } } }, exclude: before };
}
