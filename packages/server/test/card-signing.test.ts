/**
 * The served card signed (`signCard`): every generation carries signatures over the v1.0 card as
 * this request gets it, re-signed when the interface URLs (Host) or the card change, cached
 * otherwise (stable ETag, 304 revalidation).
 */
import { request } from 'node:http';
import { createCardSigner, verifyCardSignature, type CardSigner } from '@a2a-polyglot/card-signing';
import { AgentCard } from '@a2a-polyglot/model';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { startTestServer, type TestServer } from './helpers.js';

let s: TestServer;
let jwk: JWK;
let signs = 0;
beforeAll(async () => {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  jwk = { ...(await exportJWK(publicKey)), kid: 'card-key', alg: 'ES256' };
  const signer: CardSigner = createCardSigner({ key: privateKey, alg: 'ES256', kid: 'card-key' });
  s = await startTestServer({
    // One case reads the card under another Host name: allowed, as behind a proxy.
    allowedHosts: ['agents.example'],
    signCard: (card) => {
      signs++;
      return signer.sign(card);
    },
  });
});
afterAll(() => s.close());

const keys = () => ({ keys: [jwk] });

async function get(headers: Record<string, string> = {}): Promise<{ status: number; body: any; etag: string | null }> {
  const res = await fetch(`${s.url}/.well-known/agent-card.json`, { headers });
  return { status: res.status, body: res.status === 200 ? await res.json() : undefined, etag: res.headers.get('etag') };
}

/** A GET with a Host header fetch would not let us set (a client reaching the server by another name). */
function getWithHost(host: string): Promise<any> {
  return new Promise((resolve, reject) => {
    const req = request(`${s.url}/.well-known/agent-card.json`, { headers: { host, 'a2a-version': '1.0' } }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve(JSON.parse(text)));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('signed agent card', () => {
  it('the v1.0 card verifies, with the interfaces it was served with', async () => {
    const { body } = await get({ 'a2a-version': '1.0' });
    expect(body.signatures).toHaveLength(1);
    expect(body.supportedInterfaces[0].url).toBe(`${s.url}/a2a/rpc`);
    await expect(verifyCardSignature(AgentCard.fromJSON(body), keys())).resolves.toEqual({ kid: 'card-key', alg: 'ES256' });
  });

  it('the merged card carries the same signatures and verifies as a v1.0 card (its v0.3 members are not covered)', async () => {
    const pure = await get({ 'a2a-version': '1.0' });
    const merged = await get();
    expect(merged.body.url).toBe(`${s.url}/a2a/rpc`); // the v0.3 members are there
    expect(merged.body.signatures).toEqual(pure.body.signatures);
    await expect(verifyCardSignature(AgentCard.fromJSON(merged.body), keys())).resolves.toBeDefined();
    // A change to a v1.0 member of the merged card breaks it.
    await expect(verifyCardSignature(AgentCard.fromJSON({ ...merged.body, description: 'x' }), keys())).rejects.toMatchObject({ failure: 'invalid-signature' });
  });

  it('the pure v0.3 card carries the signatures of the v1.0 card, as the official SDK serves them', async () => {
    const pure = await get({ 'a2a-version': '1.0' });
    const v03 = await get({ 'a2a-version': '0.3' });
    expect(v03.body.supportedInterfaces).toBeUndefined();
    expect(v03.body.signatures).toEqual(pure.body.signatures);
  });

  it('a card served under another Host has other interfaces and its own signature, which verifies', async () => {
    const here = await get({ 'a2a-version': '1.0' });
    const there = await getWithHost('agents.example:8443');
    expect(there.supportedInterfaces[0].url).toBe('http://agents.example:8443/a2a/rpc');
    expect(there.signatures[0].signature).not.toBe(here.body.signatures[0].signature);
    await expect(verifyCardSignature(AgentCard.fromJSON(there), keys())).resolves.toBeDefined();
  });

  it('the same card is signed once: the ETag stays and revalidation answers 304', async () => {
    const first = await get({ 'a2a-version': '1.0' });
    const before = signs;
    const again = await get({ 'a2a-version': '1.0' });
    expect(again.etag).toBe(first.etag); // ECDSA signatures are random: equal only because cached
    expect(again.body.signatures).toEqual(first.body.signatures);
    expect(signs).toBe(before + 1); // asked, answered from the signer's cache
    expect((await get({ 'a2a-version': '1.0', 'if-none-match': first.etag! })).status).toBe(304);
  });
});

describe('unsigned by default', () => {
  it('without signCard the card has no signatures', async () => {
    const plain = await startTestServer();
    try {
      const body = (await (await fetch(`${plain.url}/.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } })).json()) as { signatures?: unknown };
      expect(body.signatures).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
