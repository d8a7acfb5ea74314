import { A2AError } from '../a2a-error.js';
import { A2AErrorCode } from '../error-code.js';

/**
 * SSRF guard for webhook URLs (spec §9): only http(s), and unless the deployment allows it,
 * no loopback, private, link-local or unspecified literal addresses and no `localhost`.
 * Host names are not resolved here (that would need DNS); deployments that must stop DNS
 * rebinding put an egress proxy in front of the sender.
 */
export function checkWebhookUrl(url: string, allowPrivateNetworks: boolean): void {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalid('url is not an absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw invalid('url must use http or https');
  if (allowPrivateNetworks) return;
  const host = parsed.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost') || isPrivateAddress(host)) {
    throw invalid(`webhook host ${host} is a local or private address; the server does not allow private networks`);
  }
}

function invalid(description: string): A2AError {
  return new A2AError(A2AErrorCode.InvalidParams, `Invalid push notification url: ${description}`, {
    fieldViolations: [{ field: 'url', description }],
  });
}

/** True for literal IPv4/IPv6 addresses in loopback, private, link-local or unspecified ranges. */
export function isPrivateAddress(host: string): boolean {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) {
    const [a, b] = [Number(v4[1]), Number(v4[2])];
    return a === 127 || a === 10 || a === 0 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254) || (a === 100 && b >= 64 && b <= 127);
  }
  if (host.includes(':')) {
    if (host === '::1' || host === '::') return true;
    if (host.startsWith('fe80:') || host.startsWith('fc') || host.startsWith('fd')) return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped) return isPrivateAddress(mapped[1]!);
  }
  return false;
}
