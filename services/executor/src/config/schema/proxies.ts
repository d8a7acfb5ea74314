/**
 * `trustedProxies` and `forwardedHeader`: which reverse proxies may name the client whose
 * address the per-address rate limit counts, and in which header they do.
 */
import { type ForwardedHeader, invalidProxyEntries } from '@a2a-polyglot/server';
import { z } from 'zod';
import { intIn, oneOf } from './values.js';

/** The headers a trusted proxy may name the client in (the server's `ForwardedHeader`, listed). */
export const FORWARDED_HEADERS = ['x-forwarded-for', 'forwarded'] as const satisfies readonly ForwardedHeader[];

const PROXIES = 'a hop count between 0 and 100, or a list of proxy addresses and CIDR ranges (or loopback, linklocal, uniquelocal)';

/** A hop count, or addresses and ranges as proxy-addr reads them (checked with proxy-addr itself). */
export const trustedProxiesSchema = z.union(
  [intIn(0, 100), z.array(z.string({ error: PROXIES }), { error: PROXIES }).refine((list) => invalidProxyEntries(list).length === 0, { error: PROXIES })],
  { error: PROXIES },
);

/** `forwardedHeader`: one header, since a client can write the other one itself. */
export const forwardedHeaderSchema = oneOf(FORWARDED_HEADERS);
