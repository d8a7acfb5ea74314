/**
 * Browser access to the HTTP listener: `cors` (which other origins' pages may call) and
 * `allowedHosts` (which host names requests may carry, against DNS rebinding). The checks
 * themselves are the server's (`browserAccessCheck` in @a2a-polyglot/server).
 */
import { z } from 'zod';
import { settingMeta } from './setting.js';
import { section } from './values.js';

const ORIGIN = 'an origin such as "https://app.example.com" (scheme, host and optional port; no path), or "*"';
const HOST = 'a host name such as "agents.example.com", ".example.com" (the domain and its subdomains) or "*"';

/** True for `*`, or an http(s) URL that is just an origin (a trailing slash allowed). */
function isOrigin(v: string): boolean {
  if (v === '*') return true;
  if (!URL.canParse(v)) return false;
  const url = new URL(v);
  return ['http:', 'https:'].includes(url.protocol) && url.pathname === '/' && !/[?#]/.test(v) && !url.username && !url.password;
}

/** One entry of `cors.origins`, normalized as browsers send it (`https://App.example.com/` → `https://app.example.com`). */
export const origin = z
  .string({ error: ORIGIN })
  .refine(isOrigin, { error: ORIGIN })
  .transform((v) => (v === '*' ? v : new URL(v).origin));

/** One entry of `allowedHosts`, in lower case (no port: every port of a listed host is accepted). */
export const hostName = z
  .string({ error: HOST })
  .regex(/^(\*|\.?[A-Za-z0-9_-]+(\.[A-Za-z0-9_-]+)*\.?)$/, { error: HOST })
  .transform((v) => v.toLowerCase());

/** `cors`: which pages besides the executor's own (the inspector) may call it. */
export const corsSchema = section({
  origins: z
    .array(origin, { error: 'an array of origins' })
    .default(() => [])
    .describe('Origins whose pages may call, besides the service\'s own (comma-separated in A2A_CORS_ORIGINS); "*" for any.')
    .register(settingMeta, { env: 'A2A_CORS_ORIGINS', flag: '--cors-origins' }),
});

/** `allowedHosts`: host names requests may name besides IP addresses, localhost and the host of publicBaseUrl. */
export const allowedHostsSchema = z
  .array(hostName, { error: 'an array of host names' })
  .describe(
    'Host names requests may carry besides IP addresses, localhost and the host of publicBaseUrl (comma-separated in A2A_ALLOWED_HOSTS). Unset: checked only for requests arriving on a loopback address.',
  );
