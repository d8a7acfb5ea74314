import { errors, type A2AError } from '../a2a-error.js';
import { addressRefusal, isIpAddress } from './address-policy.js';

/** A webhook URL that passed {@link checkWebhookUrl}, with its host as the network sees it. */
export interface CheckedWebhookUrl {
  readonly url: URL;
  /** Host name or IP address, without IPv6 brackets or trailing dots. */
  readonly host: string;
  /** True when {@link host} is an IP address, so there is nothing to resolve. */
  readonly literal: boolean;
}

/**
 * The webhook checks that need no DNS (spec §9, §10), run when a config is registered (so the
 * caller gets InvalidParams on `url` at once) and again before each delivery (configs saved
 * before a policy change, or written straight to a shared store, are not trusted): an
 * absolute http(s) URL without credentials, and, unless private networks are allowed, no IP
 * literal outside global unicast (see {@link addressRefusal}) and no `localhost` name.
 * Host names are resolved and checked at delivery, by {@link pinWebhookTarget}.
 */
export function checkWebhookUrl(url: string, allowPrivateNetworks: boolean): CheckedWebhookUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('url is not an absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid('url must use http or https');
  // Credentials in the URL would never be sent (the sender builds its own Authorization) and
  // would be echoed back by Get/List: the config's `authentication` is the place for them.
  if (parsed.username || parsed.password) throw invalid('url must not carry credentials (user:password@); put them in authentication');
  // The URL parser has already turned every IPv4 spelling (0x7f.1, 2130706433, …) into
  // dotted decimal and compressed IPv6, so these two tests see every literal.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1').replace(/\.+$/, '');
  const literal = isIpAddress(host);
  if (!allowPrivateNetworks) {
    const refusal = literal ? addressRefusal(host) : isLocalhostName(host) ? `${host} is a localhost name` : undefined;
    if (refusal) throw invalid(`webhook host ${refusal}; the server does not allow private networks`);
  }
  return { url: parsed, host, literal };
}

/** RFC 6761 §6.3: `localhost` and every name under it mean this machine, whatever DNS says. */
function isLocalhostName(host: string): boolean {
  return host === 'localhost' || host.endsWith('.localhost');
}

function invalid(description: string): A2AError {
  return errors.invalidParams(`Invalid push notification url: ${description}`, [{ field: 'url', description }]);
}
