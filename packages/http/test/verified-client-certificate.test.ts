/**
 * `verifiedClientCertificate` over real TLS sockets: it tells a node:tls socket by its
 * `encrypted` flag (no runtime node:tls import, so the module also loads in Workers), and
 * returns the certificate only of a peer the listener's CA verified.
 */
import { once } from 'node:events';
import { type AddressInfo, connect as netConnect, createServer as createNetServer, type Socket } from 'node:net';
import { connect, createServer, type TLSSocket } from 'node:tls';
import { makeTestPki, type TestKeyPair, type TestPki } from '@a2a-polyglot/testing';
import { verifiedClientCertificate } from '../src/index.js';

describe('verifiedClientCertificate', () => {
  let pki: TestPki;
  beforeAll(() => {
    pki = makeTestPki();
  }, 30_000);

  /** `verifiedClientCertificate` of the server side of a TLS connection from a client presenting `client` (or nothing). */
  async function certificateSeen(client: TestKeyPair | undefined) {
    const server = createServer({ ...pki.server, ca: pki.ca.cert, requestCert: true, rejectUnauthorized: false });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const accepted = once(server, 'secureConnection') as Promise<[TLSSocket]>;
    const socket = connect({ port: (server.address() as AddressInfo).port, host: '127.0.0.1', ca: pki.ca.cert, servername: 'localhost', ...client });
    const [peer] = await accepted;
    const seen = verifiedClientCertificate(peer);
    socket.destroy();
    peer.destroy();
    server.close();
    return seen;
  }

  it('returns the CA-verified client certificate of a TLS socket', async () => {
    const cert = await certificateSeen(pki.client);
    expect(cert?.commonName).toBe('client');
  });

  it('returns undefined for a TLS peer without a certificate, or one of another CA', async () => {
    expect(await certificateSeen(undefined)).toBeUndefined();
    expect(await certificateSeen(makeTestPki({ caName: 'other CA' }).client)).toBeUndefined();
  }, 30_000);

  it('returns undefined for a plain TCP socket', async () => {
    const server = createNetServer();
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const accepted = once(server, 'connection') as Promise<[Socket]>;
    const client = netConnect((server.address() as AddressInfo).port, '127.0.0.1');
    const [peer] = await accepted;
    expect(verifiedClientCertificate(peer)).toBeUndefined();
    client.destroy();
    peer.destroy();
    server.close();
  });
});
