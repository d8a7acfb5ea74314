/**
 * Which hop of the forwarded headers is the client, for the trusted-proxy settings: lists and
 * ranges, hop counts, RFC 7239 `Forwarded` nodes, and the headers that must be ignored.
 */
import type { IncomingMessage } from 'node:http';
import { clientAddressResolver, invalidProxyEntries, recordClientAddress, remoteAddressOf, type ClientAddressOptions } from '../src/index.js';

const request = (peer: string | undefined, headers: Record<string, string> = {}) =>
  ({ socket: peer === undefined ? undefined : { remoteAddress: peer }, headers }) as unknown as IncomingMessage;

const resolveWith = (options: ClientAddressOptions, req: IncomingMessage) => {
  const resolver = clientAddressResolver(options);
  if (!resolver) throw new Error('expected a resolver');
  return resolver(req);
};

describe('clientAddressResolver', () => {
  it('is off without trusted proxies: nothing to resolve, the peer is the client', () => {
    expect(clientAddressResolver({})).toBeUndefined();
    expect(clientAddressResolver({ trustedProxies: [] })).toBeUndefined();
    expect(clientAddressResolver({ trustedProxies: 0 })).toBeUndefined();
    expect(remoteAddressOf(request('192.0.2.7', { 'x-forwarded-for': '203.0.113.1' }))).toBe('192.0.2.7');
  });

  it('walks X-Forwarded-For from the nearest hop past the trusted proxies', () => {
    const options = { trustedProxies: ['loopback', '10.0.0.0/8'] };
    expect(resolveWith(options, request('127.0.0.1', { 'x-forwarded-for': '203.0.113.1' }))).toBe('203.0.113.1');
    // A client-written entry in front of the one the proxies appended is not believed.
    expect(resolveWith(options, request('127.0.0.1', { 'x-forwarded-for': '198.51.100.9, 203.0.113.1, 10.1.2.3' }))).toBe('203.0.113.1');
    expect(resolveWith(options, request('::ffff:10.0.0.1', { 'x-forwarded-for': '203.0.113.1' }))).toBe('203.0.113.1');
    // An untrusted peer is the client, whatever it writes.
    expect(resolveWith(options, request('192.0.2.7', { 'x-forwarded-for': '203.0.113.1' }))).toBe('192.0.2.7');
    // A trusted peer without the header is the client itself.
    expect(resolveWith(options, request('127.0.0.1'))).toBe('127.0.0.1');
  });

  it('trusts a hop count whatever the addresses, as Express does', () => {
    const chain = { 'x-forwarded-for': '198.51.100.9, 203.0.113.1, 192.0.2.50' };
    expect(resolveWith({ trustedProxies: 1 }, request('192.0.2.7', chain))).toBe('192.0.2.50');
    expect(resolveWith({ trustedProxies: 2 }, request('192.0.2.7', chain))).toBe('203.0.113.1');
    expect(resolveWith({ trustedProxies: 10 }, request('192.0.2.7', chain))).toBe('198.51.100.9');
  });

  it('reads the for= nodes of RFC 7239 Forwarded, and only that header, when told to', () => {
    const options = { trustedProxies: ['loopback'], header: 'forwarded' } as const;
    expect(resolveWith(options, request('127.0.0.1', { forwarded: 'for=203.0.113.1;proto=https' }))).toBe('203.0.113.1');
    expect(resolveWith(options, request('127.0.0.1', { forwarded: 'for="203.0.113.1:4711"' }))).toBe('203.0.113.1');
    expect(resolveWith(options, request('127.0.0.1', { forwarded: 'for="[2001:db8:cafe::17]:4711"' }))).toBe('2001:db8:cafe::17');
    expect(resolveWith(options, request('127.0.0.1', { forwarded: 'for=198.51.100.9, for=203.0.113.1;by=127.0.0.1, for=127.0.0.2' }))).toBe('203.0.113.1');
    // The other header is the client's own text here.
    expect(resolveWith(options, request('127.0.0.1', { 'x-forwarded-for': '203.0.113.1' }))).toBe('127.0.0.1');
    // A header that does not parse, or a node without for=, gives nothing beyond it.
    expect(resolveWith(options, request('127.0.0.1', { forwarded: 'for=203.0.113.1;;' }))).toBe('127.0.0.1');
    expect(resolveWith(options, request('127.0.0.1', { forwarded: 'for=198.51.100.9, proto=https' }))).toBe('127.0.0.1');
    // With X-Forwarded-For chosen, Forwarded is ignored.
    expect(resolveWith({ trustedProxies: ['loopback'] }, request('127.0.0.1', { forwarded: 'for=203.0.113.1' }))).toBe('127.0.0.1');
  });

  it('gives no address for a request without a socket, and what recordClientAddress stored to remoteAddressOf', () => {
    expect(resolveWith({ trustedProxies: 1 }, request(undefined, { 'x-forwarded-for': '203.0.113.1' }))).toBeUndefined();
    const req = request('127.0.0.1', { 'x-forwarded-for': '203.0.113.1' });
    expect(remoteAddressOf(req)).toBe('127.0.0.1');
    recordClientAddress(req, clientAddressResolver({ trustedProxies: ['127.0.0.1'] })!);
    expect(remoteAddressOf(req)).toBe('203.0.113.1');
  });

  it('refuses entries proxy-addr cannot read', () => {
    expect(invalidProxyEntries(['loopback', '10.0.0.0/8', '2001:db8::/32', '192.168.0.0/255.255.0.0'])).toEqual([]);
    expect(invalidProxyEntries(['10.0.0.300', 'proxy.internal', '10.0.0.0/33'])).toEqual(['10.0.0.300', 'proxy.internal', '10.0.0.0/33']);
    expect(() => clientAddressResolver({ trustedProxies: ['nonsense'] })).toThrow(TypeError);
  });
});
