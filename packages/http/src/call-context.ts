import type { IncomingMessage } from 'node:http';
import { type BindingName, type CallContext, callContext } from '@a2a-polyglot/core';

/** Name of the query parameter the spec allows in place of the `A2A-Version` header (§3.2). */
export const VERSION_QUERY_PARAM = 'A2A-Version';

/** Extra inputs of {@link nodeCallContext}. */
export interface NodeCallContextOptions {
  /** Tenant bound in the request path (REST `/{tenant}/...`); wins over the request field. */
  readonly pathTenant?: string;
  /** Aborted when the client goes away (see {@link requestAbortSignal}). */
  readonly signal?: AbortSignal;
}

/**
 * A core {@link CallContext} from a node:http request: headers become service parameters.
 * When the `A2A-Version` header is absent, the `A2A-Version` query parameter fills it in:
 * the spec allows the query form for clients that cannot set headers (browsers' EventSource).
 */
export function nodeCallContext(binding: BindingName, req: IncomingMessage, options: NodeCallContextOptions = {}): CallContext {
  const headers: Record<string, string | string[] | undefined> = { ...req.headers };
  if (headers['a2a-version'] === undefined) {
    const fromQuery = versionFromQuery(req.url);
    if (fromQuery !== undefined) headers['a2a-version'] = fromQuery;
  }
  return callContext(binding, headers, { pathTenant: options.pathTenant, signal: options.signal });
}

function versionFromQuery(url: string | undefined): string | undefined {
  const q = url?.indexOf('?') ?? -1;
  if (q < 0) return undefined;
  const params = new URLSearchParams(url!.slice(q + 1));
  return params.get(VERSION_QUERY_PARAM) ?? params.get(VERSION_QUERY_PARAM.toLowerCase()) ?? undefined;
}
