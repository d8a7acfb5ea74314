import type { ArrivingRequest } from './arriving-request.js';

/** What a Host / X-Forwarded-Host value may contain (host, IPv4, [IPv6], port). */
export const HOST_PATTERN = /^[A-Za-z0-9._-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The public base URL of the server as a client sees it, without a trailing slash.
 *
 * Why validate the Host header: it ends up in the agent card's interface URLs, and a card may
 * be cached; an attacker-chosen host must not be echoed there. A malformed host falls back to
 * where the request arrived (the socket's local address on node:http, the request URL's host
 * on fetch runtimes). Forwarded headers count only with `trustProxy`, because any client can
 * send them: then the scheme and host come from RFC 7239 `Forwarded` or `X-Forwarded-Proto` /
 * `X-Forwarded-Host`, and a proxy that routes the server under a path
 * (`X-Forwarded-Prefix: /agents-gw`) has that path in front of every URL.
 */
export function publicBaseUrl(req: ArrivingRequest, configured: string | undefined, trustProxy: boolean): string {
  if (configured) return configured.replace(/\/+$/, '');
  const forwarded = trustProxy ? req.forwarded?.() : undefined;
  const proto = forwarded?.proto === 'http' || forwarded?.proto === 'https' ? forwarded.proto : req.arrival().secure ? 'https' : 'http';
  const host = [forwarded?.host, req.header('host')].find((h): h is string => h !== undefined && HOST_PATTERN.test(h)) ?? req.arrival().localHost;
  return `${proto}://${host}${forwarded?.prefix ?? ''}`;
}

/** The request headers a card built with {@link publicBaseUrl} depends on: its `Vary`. */
export function publicUrlVary(configured: string | undefined, trustProxy: boolean): string[] {
  if (configured) return [];
  return trustProxy ? ['Host', 'Forwarded', 'X-Forwarded-Host', 'X-Forwarded-Proto', 'X-Forwarded-Prefix'] : ['Host'];
}
