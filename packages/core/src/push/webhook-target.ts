import ipaddr from 'ipaddr.js';
import { A2AError } from '../a2a-error.js';
import { addressRefusal, isIpAddress } from './address-policy.js';
import { checkWebhookUrl } from './webhook-url.js';

/** One answer of a {@link WebhookResolver}, shaped like `dns.lookup(…, { all: true })`. */
export interface ResolvedAddress {
  readonly address: string;
  readonly family?: number;
}

/**
 * Turns a webhook host name into its addresses. A seam so the delivery path can be tested
 * with answers no real DNS would give (loopback names, rebinding) without any lookup leaving
 * the machine; on Node, production uses `systemResolver` of `@a2a-polyglot/http` (`dns.lookup`, which honours
 * /etc/hosts).
 */
export type WebhookResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/**
 * Where one delivery attempt goes: the URL, and the one address it was checked against.
 * A pinning transport must connect to exactly {@link address}, never resolve {@link url}
 * again, or a name answering a public address to the check and a private one to the
 * connection (DNS rebinding) would walk around the policy. Without a resolver (a fetch
 * runtime) a host name is not resolved, so {@link address} is set only for an IP literal.
 */
export interface WebhookTarget {
  readonly url: URL;
  readonly address?: string;
  readonly family?: 4 | 6;
}

/**
 * A webhook the policy does not let us call. Final for the event: retrying cannot change
 * the answer in time to matter, and every attempt would reach the same forbidden place.
 */
export class WebhookRefused extends Error {
  override readonly name = 'WebhookRefused';
}

/**
 * Checks a webhook at delivery time and picks the address to connect to: the URL checks
 * again, then the host's addresses from one resolution, every one of which must pass
 * {@link addressRefusal} unless private networks are allowed (one bad answer refuses the
 * name: a name mixing public and internal answers is an attack or a mistake). Either way the
 * first answer is pinned, so the allow-private path makes no second lookup either.
 * Resolver failures propagate as they are (the sender retries them). Without `resolve` (a
 * runtime that cannot choose the address it connects to) only the URL is checked and a host
 * name stays unresolved: no address, no pinning (see `WebhookNetwork`).
 */
export async function pinWebhookTarget(rawUrl: string, allowPrivateNetworks: boolean, resolve: WebhookResolver | undefined): Promise<WebhookTarget> {
  let checked: ReturnType<typeof checkWebhookUrl>;
  try {
    checked = checkWebhookUrl(rawUrl, allowPrivateNetworks);
  } catch (error) {
    throw error instanceof A2AError ? new WebhookRefused(error.message) : error;
  }
  const { url, host, literal } = checked;
  let answers: string[];
  if (literal) answers = [host];
  else if (resolve) answers = (await resolve(host)).map((answer) => answer.address);
  else return { url };
  const address = answers[0];
  if (address === undefined) throw new WebhookRefused(`${host} resolves to no address`);
  for (const answer of answers) {
    // Even with private networks allowed, the answer must be an address: it is what we connect to.
    const refusal = isIpAddress(answer) ? (allowPrivateNetworks ? undefined : addressRefusal(answer)) : `${answer} is not an IP address`;
    if (refusal) throw new WebhookRefused(literal ? `webhook host ${refusal}` : `${host} resolves to ${answer}: ${refusal}`);
  }
  return { url, address, family: ipaddr.parse(address).kind() === 'ipv4' ? 4 : 6 };
}
