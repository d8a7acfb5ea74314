import { extensionsHeader } from '@a2a-polyglot/http';
import type { CallContext } from '@a2a-polyglot/core';

/** Default content type of non-streaming JSON-RPC responses (spec §3.1); a client that sends `application/a2a+json` gets that back. */
export const JSON_RPC_CONTENT_TYPE = 'application/json';

/**
 * `A2A-Extensions` response header for all calls of one HTTP request (a batch may hold
 * several; they share the request headers, so their activated sets are the same); v0.3 calls
 * get theirs echoed as `X-A2A-Extensions`, the name v0.3 clients read.
 */
export function activatedExtensionsHeader(contexts: readonly CallContext[]): Record<string, string> {
  // The usual request: one call that activated nothing.
  if (contexts.length === 1 && !contexts[0]?.activatedExtensions?.length) return {};
  const v1 = new Set<string>();
  const v03 = new Set<string>();
  for (const ctx of contexts) for (const uri of ctx.activatedExtensions ?? []) (ctx.wireVersion === '0.3' ? v03 : v1).add(uri);
  return { ...extensionsHeader([...v1]), ...extensionsHeader([...v03], 'x-a2a-extensions') };
}
