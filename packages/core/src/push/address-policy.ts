import ipaddr from 'ipaddr.js';

/**
 * Which IP addresses a webhook may reach when private networks are not allowed. A webhook URL
 * is chosen by the caller, so without this check any caller could make the server POST to
 * its own loopback services, the cloud metadata endpoint or the internal network (SSRF).
 *
 * Only ordinary global unicast passes. Ranges come from ipaddr.js, whose tables follow the
 * IANA special-purpose registries (loopback, private, link-local, CGNAT, benchmarking,
 * documentation, multicast, broadcast, reserved, unique-local, AS112, AMT, ORCHID, …); we add
 * only what it leaves as "unicast" although IANA has not allocated it for global unicast, and
 * the IPv6 forms that carry an IPv4 address.
 */
export function addressRefusal(address: string): string | undefined {
  if (!isIpAddress(address)) return `${address} is not an IP address`;
  const ip = ipaddr.parse(address);
  return ip.kind() === 'ipv4' ? ipv4Refusal(ip as ipaddr.IPv4) : ipv6Refusal(ip as ipaddr.IPv6);
}

/**
 * True for an IP address in its usual spelling (dotted decimal IPv4, or IPv6). Stricter than
 * `ipaddr.isValid`, which also takes `127.1` or `0x7f.0.0.1`: such text is a host name to the
 * URL parser and the resolver, so calling it an address would check one thing and reach another.
 */
export function isIpAddress(text: string): boolean {
  return ipaddr.IPv4.isValidFourPartDecimal(text) || ipaddr.IPv6.isValid(text);
}

/**
 * True for a loopback address (127.0.0.0/8, `::1`, and IPv4-mapped IPv6 of 127/8): what only
 * this machine can reach. Here, beside the webhook policy, so the service's other address
 * decisions (e.g. what it serves by default on a loopback listener) use the same tables.
 */
export function isLoopbackAddress(text: string): boolean {
  return isIpAddress(text) && ipaddr.process(text).range() === 'loopback';
}

function ipv4Refusal(ip: ipaddr.IPv4): string | undefined {
  const range = ip.range();
  return range === 'unicast' ? undefined : `${ip.toString()} is ${range}`;
}

/** NAT64 well-known prefix (RFC 6052): the last 32 bits are the IPv4 address the translator reaches. */
const NAT64 = ipaddr.IPv6.parseCIDR('64:ff9b::/96');
/** IPv4-compatible addresses (RFC 4291 §2.5.5.1, deprecated): `::a.b.c.d`. */
const IPV4_COMPATIBLE = ipaddr.IPv6.parseCIDR('::/96');
/** The only IPv6 space IANA allocates for global unicast; everything else is reserved or special. */
const GLOBAL_UNICAST = ipaddr.IPv6.parseCIDR('2000::/3');

function ipv6Refusal(ip: ipaddr.IPv6): string | undefined {
  const text = ip.toString();
  const range = ip.range();
  switch (range) {
    // Mapped (::ffff:a.b.c.d) and translated (::ffff:0:a.b.c.d) addresses reach the IPv4
    // address they carry, as does NAT64 64:ff9b::/96: judge that address.
    case 'ipv4Mapped':
    case 'rfc6145':
      return embedded(text, lastIpv4(ip));
    case 'rfc6052':
      // ipaddr.js files the local-use prefix 64:ff9b:1::/48 (RFC 8215) here too; it leads to
      // a translator inside the operator's own network, so it is refused outright.
      return ip.match(NAT64) ? embedded(text, lastIpv4(ip)) : `${text} is local-use NAT64 (64:ff9b:1::/48)`;
    case 'unicast':
      if (ip.match(GLOBAL_UNICAST)) return undefined;
      if (ip.match(IPV4_COMPATIBLE)) {
        const inner = ipv4Refusal(lastIpv4(ip));
        return `${text} is a deprecated IPv4-compatible address${inner ? ` (${inner})` : ''}`;
      }
      return `${text} is reserved (outside 2000::/3)`;
    default:
      // 6to4 (2002::/16) and Teredo (2001::/32) are deprecated tunnels whose packets go to an
      // IPv4 address the address's owner picked; no webhook needs them, so they are refused
      // like every other special range rather than unwrapped.
      return `${text} is ${range}`;
  }
}

function embedded(text: string, v4: ipaddr.IPv4): string | undefined {
  const inner = ipv4Refusal(v4);
  return inner ? `${text} embeds ${inner}` : undefined;
}

function lastIpv4(ip: ipaddr.IPv6): ipaddr.IPv4 {
  const bytes = ip.toByteArray();
  return new ipaddr.IPv4(bytes.slice(12, 16));
}
