import { A2AErrorCode, type A2AError, type WebhookResolver } from '../src/index.js';
import { addressRefusal } from '../src/push/address-policy.js';
import { pinWebhookTarget, WebhookRefused } from '../src/push/webhook-target.js';
import { checkWebhookUrl } from '../src/push/webhook-url.js';

/** `ok` = accepted; any other string = refused, with this text in the reason. */
type Expect = 'ok' | string;

/** Registration: the URL as a caller sends it, private networks not allowed. */
const urls: Array<[string, Expect]> = [
  ['https://hooks.example.com/a2a', 'ok'],
  ['http://hooks.example.com:8080/x?y=1', 'ok'],
  ['http://8.8.8.8/hook', 'ok'],
  ['http://[2606:4700:4700::1111]/hook', 'ok'],
  ['http://[::ffff:8.8.8.8]/hook', 'ok'], // IPv4-mapped public address
  ['http://[64:ff9b::808:808]/hook', 'ok'], // NAT64 of a public address
  ['http://intranet/hook', 'ok'], // names are resolved and checked at delivery
  // IPv4 special ranges, in every spelling the URL parser accepts
  ['http://127.0.0.1:9/x', '127.0.0.1 is loopback'],
  ['http://127.1/', '127.0.0.1 is loopback'],
  ['http://2130706433/', '127.0.0.1 is loopback'],
  ['http://0x7f.0.0.1/', '127.0.0.1 is loopback'],
  ['http://0177.0.0.1/', '127.0.0.1 is loopback'],
  ['http://127.0.0.1./', '127.0.0.1 is loopback'],
  ['http://127.0.0.1%2e/', '127.0.0.1 is loopback'],
  ['http://\u2460\u2461\u2466.0.0.1/', '127.0.0.1 is loopback'], // circled digits, folded by IDNA
  ['http://0.0.0.0/', 'unspecified'],
  ['http://10.1.2.3/', 'private'],
  ['http://172.20.0.1/', 'private'],
  ['http://192.168.0.1/', 'private'],
  ['http://169.254.169.254/latest/meta-data', 'linkLocal'],
  ['http://100.64.0.1/', 'carrierGradeNat'],
  ['http://198.18.0.1/', 'reserved'], // benchmarking 198.18.0.0/15
  ['http://198.19.255.254/', 'reserved'],
  ['http://192.0.0.9/', 'reserved'], // IETF protocol assignments
  ['http://192.0.2.1/', 'reserved'], // TEST-NET-1
  ['http://198.51.100.7/', 'reserved'], // TEST-NET-2
  ['http://203.0.113.9/', 'reserved'], // TEST-NET-3
  ['http://192.88.99.1/', 'reserved'], // deprecated 6to4 relay anycast
  ['http://240.0.0.1/', 'reserved'],
  ['http://224.0.0.1/', 'multicast'],
  ['http://239.255.255.250/', 'multicast'],
  ['http://255.255.255.255/', 'broadcast'],
  ['http://192.31.196.1/', 'as112'],
  ['http://192.52.193.1/', 'amt'],
  // IPv6 special ranges
  ['http://[::1]/', '::1 is loopback'],
  ['http://[::]/', 'unspecified'],
  ['http://[fe80::1]/', 'linkLocal'],
  ['http://[fc00::1]/', 'uniqueLocal'],
  ['http://[fd12:3456::1]/', 'uniqueLocal'],
  ['http://[fec0::1]/', 'deprecatedSiteLocal'],
  ['http://[ff02::1]/', 'multicast'],
  ['http://[2001:db8::1]/', 'reserved'], // documentation
  ['http://[3fff::1]/', 'reserved'], // documentation (RFC 9637)
  ['http://[100::1]/', 'discard'],
  ['http://[2001:2::1]/', 'benchmarking'],
  ['http://[5f00::1]/', 'segmentRouting'],
  ['http://[4000::1]/', 'reserved (outside 2000::/3)'],
  // IPv6 forms that carry an IPv4 address
  ['http://[::ffff:127.0.0.1]:8080/hook', '::ffff:7f00:1 embeds 127.0.0.1 is loopback'],
  ['http://[::ffff:169.254.169.254]/', 'embeds 169.254.169.254 is linkLocal'],
  ['http://[::ffff:10.0.0.1]/', 'embeds 10.0.0.1 is private'],
  ['http://[::7f00:1]/', 'deprecated IPv4-compatible address (127.0.0.1 is loopback)'],
  ['http://[::8.8.8.8]/', 'deprecated IPv4-compatible address'],
  ['http://[::ffff:0:7f00:1]/', 'embeds 127.0.0.1 is loopback'], // RFC 6145 IPv4-translated
  ['http://[64:ff9b::7f00:1]/', 'embeds 127.0.0.1 is loopback'],
  ['http://[64:ff9b::a9fe:a9fe]/', 'embeds 169.254.169.254 is linkLocal'],
  ['http://[64:ff9b:1::808:808]/', 'local-use NAT64'],
  ['http://[2002:7f00:1::1]/', '6to4'],
  ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', 'teredo'],
  // names that mean this machine
  ['http://localhost/x', 'localhost is a localhost name'],
  ['http://localhost./x', 'localhost is a localhost name'],
  ['http://localhost%2e%2e/x', 'localhost is a localhost name'],
  ['http://LOCALHOST:8080/x', 'localhost is a localhost name'],
  ['http://api.localhost/', 'api.localhost is a localhost name'],
  // not a deliverable URL at all
  ['http://a:b@hooks.example.com/', 'must not carry credentials'],
  ['http://a@hooks.example.com/', 'must not carry credentials'],
  ['https://:secret@hooks.example.com/', 'must not carry credentials'],
  ['ftp://example.com/', 'must use http or https'],
  ['file:///etc/passwd', 'must use http or https'],
  ['not a url', 'not an absolute URL'],
];

/** Registration with private networks allowed (tests, single-host setups). */
const allowedUrls: Array<[string, Expect]> = [
  ['http://127.0.0.1:9/x', 'ok'],
  ['http://[::1]:9/x', 'ok'],
  ['http://localhost:8080/x', 'ok'],
  ['http://[::ffff:127.0.0.1]:8080/x', 'ok'],
  ['http://a:b@127.0.0.1:9/x', 'must not carry credentials'],
  ['gopher://127.0.0.1/', 'must use http or https'],
];

function registration(url: string, allowPrivate: boolean): Expect {
  try {
    checkWebhookUrl(url, allowPrivate);
    return 'ok';
  } catch (error) {
    const e = error as A2AError;
    expect(e.code).toBe(A2AErrorCode.InvalidParams);
    expect(e.fieldViolations).toHaveLength(1);
    expect(e.fieldViolations[0]!.field).toBe('url');
    return e.fieldViolations[0]!.description;
  }
}

describe('webhook registration policy', () => {
  it('has a table of at least 40 cases', () => expect(urls.length + allowedUrls.length).toBeGreaterThanOrEqual(40));

  it.each(urls)('%s ⇒ %s', (url, expected) => {
    const got = registration(url, false);
    if (expected === 'ok') expect(got).toBe('ok');
    else expect(got).toContain(expected);
  });

  it.each(allowedUrls)('with private networks allowed: %s ⇒ %s', (url, expected) => {
    const got = registration(url, true);
    if (expected === 'ok') expect(got).toBe('ok');
    else expect(got).toContain(expected);
  });
});

/** Delivery: what the resolver answers for a name; every answer must pass. */
const answers: Array<[string[], Expect]> = [
  [['93.184.216.34'], 'ok'],
  [['2606:2800:220:1:248:1893:25c8:1946'], 'ok'],
  [['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'], 'ok'],
  [['127.0.0.1'], '127.0.0.1 is loopback'],
  [['127.0.1.1'], 'loopback'], // Debian's /etc/hosts entry for the machine's own name
  [['::1'], 'loopback'],
  [['::ffff:7f00:1'], 'embeds 127.0.0.1 is loopback'],
  [['169.254.169.254'], 'linkLocal'],
  [['fd00:ec2::254'], 'uniqueLocal'], // AWS IPv6 metadata endpoint
  [['93.184.216.34', '10.0.0.1'], '10.0.0.1 is private'],
  [['10.0.0.1', '93.184.216.34'], '10.0.0.1 is private'],
  [[], 'resolves to no address'],
  [['127.1'], 'not an IP address'],
  [['not-an-address'], 'not an IP address'],
];

describe('webhook delivery policy (host names resolved at delivery)', () => {
  const resolverOf =
    (list: string[]): WebhookResolver =>
    async () =>
      list.map((address) => ({ address }));

  it.each(answers)('hooks.example.test resolving to %j ⇒ %s', async (list, expected) => {
    const pinned = pinWebhookTarget('http://hooks.example.test/hook', false, resolverOf(list));
    if (expected === 'ok') {
      await expect(pinned).resolves.toMatchObject({ address: list[0], family: list[0]!.includes(':') ? 6 : 4 });
    } else {
      await expect(pinned).rejects.toThrow(WebhookRefused);
      await expect(pinned).rejects.toThrow(expected);
    }
  });

  it('re-checks the URL itself at delivery (configs saved before the policy or straight into a store)', async () => {
    const resolve = jest.fn(resolverOf(['93.184.216.34']));
    await expect(pinWebhookTarget('http://[::ffff:127.0.0.1]/', false, resolve)).rejects.toThrow('embeds 127.0.0.1 is loopback');
    await expect(pinWebhookTarget('http://u:p@hooks.example.test/', true, resolve)).rejects.toThrow(WebhookRefused);
    await expect(pinWebhookTarget('http://localhost./', false, resolve)).rejects.toThrow('localhost name');
    expect(resolve).not.toHaveBeenCalled();
  });

  it('with private networks allowed, still pins the first answer of one resolution', async () => {
    const resolve = jest.fn(resolverOf(['127.0.0.1', '10.0.0.1']));
    await expect(pinWebhookTarget('http://hooks.example.test:8080/hook', true, resolve)).resolves.toMatchObject({ address: '127.0.0.1', family: 4 });
    expect(resolve).toHaveBeenCalledTimes(1);
    await expect(pinWebhookTarget('http://hooks.example.test/', true, resolverOf(['nonsense']))).rejects.toThrow('not an IP address');
  });

  it('needs no resolution for an IP literal, and pins it', async () => {
    const resolve = jest.fn(resolverOf([]));
    await expect(pinWebhookTarget('http://[2606:4700:4700::1111]:8443/x', false, resolve)).resolves.toMatchObject({
      address: '2606:4700:4700::1111',
      family: 6,
    });
    expect(resolve).not.toHaveBeenCalled();
  });

  it('addressRefusal judges bare addresses the same way', () => {
    expect(addressRefusal('8.8.8.8')).toBeUndefined();
    expect(addressRefusal('::ffff:169.254.169.254')).toContain('linkLocal');
    expect(addressRefusal('0x7f.1')).toContain('not an IP address');
  });
});
