import type { IncomingMessage } from 'node:http';
import type { TLSSocket } from 'node:tls';

/** What a Host / X-Forwarded-Host value may contain (host, IPv4, [IPv6], port). */
export const HOST_PATTERN = /^[A-Za-z0-9._-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

/**
 * The public base URL of the server as a client sees it, without a trailing slash.
 *
 * Why validate the Host header: it ends up in the agent card's interface URLs, and a card may
 * be cached; an attacker-chosen host must not be echoed there. A malformed host falls back to
 * the socket's local address. Forwarded headers count only with `trustProxy`, because any
 * client can send them.
 */
export function publicBaseUrl(req: IncomingMessage, configured: string | undefined, trustProxy: boolean): string {
  if (configured) return configured.replace(/\/+$/, '');
  const forwardedProto = trustProxy ? firstValue(req.headers['x-forwarded-proto'])?.toLowerCase() : undefined;
  const proto = forwardedProto === 'http' || forwardedProto === 'https' ? forwardedProto : (req.socket as TLSSocket).encrypted ? 'https' : 'http';
  const forwardedHost = trustProxy ? firstValue(req.headers['x-forwarded-host']) : undefined;
  const host = [forwardedHost, req.headers.host].find((h): h is string => h !== undefined && HOST_PATTERN.test(h)) ?? socketHost(req);
  return `${proto}://${host}`;
}

/** The first of a comma-separated (forwarded) header's values, trimmed; undefined when absent or empty. */
export function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  const first = value?.split(',')[0]?.trim();
  return first === '' ? undefined : first;
}

function socketHost(req: IncomingMessage): string {
  const address = req.socket.localAddress ?? '127.0.0.1';
  const host = address.includes(':') ? `[${address}]` : address;
  return `${host}:${req.socket.localPort ?? 80}`;
}
