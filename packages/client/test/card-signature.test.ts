/**
 * `verifyCard`: the client checks the card's signature before it uses the card, with trusted
 * keys given or fetched from a JWKS URL; a card the official SDK (@a2a-js/sdk 1.3.0) signed
 * verifies, a changed one is refused with `clientFailure: 'bad-card-signature'`.
 */
import { generateKeyPairSync } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createCardSigner, type JWK } from '@a2a-polyglot/card-signing';
import { A2AError } from '@a2a-polyglot/core';
import { AgentCard } from '@a2a-polyglot/model';
import { agentCardToV03 } from '@a2a-polyglot/v03/json';
import { sdkCardSignature } from '@a2a-polyglot/testing';
import { CardSignatureError, CardVerifier, Client, clientFailureOf, resolveAgentCard } from '../src/index.js';

jest.setTimeout(30_000);

/** Serves `card` (JSON, whatever it is) at the well-known path and `jwks` at /jwks.json, counting JWKS reads. */
class CardHost {
  card: unknown = {};
  jwks: { keys: JWK[] } = { keys: [] };
  jwksReads = 0;
  url = '';
  private server: Server | undefined;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      if (req.url === '/jwks.json') this.jwksReads++;
      const body = req.url === '/jwks.json' ? this.jwks : req.url === '/.well-known/agent-card.json' ? this.card : undefined;
      if (body === undefined) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server?.close(() => r()) ?? r());
  }
}

const CARD_JSON = {
  name: 'Signed agent',
  description: 'A card with a signature',
  supportedInterfaces: [{ url: 'http://127.0.0.1:1/a2a/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
  version: '1.0.0',
  capabilities: { streaming: true },
  securitySchemes: { apiKey: { apiKeySecurityScheme: { location: 'header', name: 'x-api-key' } } },
  securityRequirements: [{ schemes: { apiKey: {} } }],
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['demo'] }],
};

/** A P-256 key pair (node:crypto: this package's tests keep the official SDK's jose to itself). */
async function key(kid: string) {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = (k: typeof publicKey): JWK => ({ ...(k.export({ format: 'jwk' }) as JWK), kid, alg: 'ES256' });
  return { kid, privateKey, publicJwk: jwk(publicKey), privateJwk: jwk(privateKey) };
}

async function signedByUs(k: Awaited<ReturnType<typeof key>>, json: unknown = CARD_JSON): Promise<Record<string, unknown>> {
  const card = AgentCard.fromJSON(json);
  return AgentCard.toJSON({ ...card, signatures: await createCardSigner({ key: k.privateKey, alg: 'ES256', kid: k.kid }).sign(card) }) as Record<
    string,
    unknown
  >;
}

/** The failure of a resolve: `clientFailure` and the CardSignatureError's `failure`. */
async function refusal(promise: Promise<unknown>): Promise<{ clientFailure: unknown; failure: unknown } | 'accepted'> {
  try {
    await promise;
    return 'accepted';
  } catch (error) {
    expect(error).toBeInstanceOf(A2AError);
    const cause = (error as A2AError).cause;
    return { clientFailure: clientFailureOf(error), failure: cause instanceof CardSignatureError ? cause.failure : undefined };
  }
}

let host: CardHost;
beforeEach(async () => {
  host = await new CardHost().start();
});
afterEach(() => host.close());

describe('verifyCard', () => {
  it('accepts a card signed by a trusted key and refuses it changed, unsigned, or signed by another key', async () => {
    const trusted = await key('trusted');
    const other = await key('other');
    const verifyCard = { keys: [trusted.publicJwk] };
    host.card = await signedByUs(trusted);
    await expect(resolveAgentCard(host.url, { verifyCard })).resolves.toMatchObject({ card: { name: 'Signed agent' } });

    host.card = {
      ...(await signedByUs(trusted)),
      supportedInterfaces: [{ url: 'http://evil.example/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    };
    expect(await refusal(resolveAgentCard(host.url, { verifyCard }))).toEqual({ clientFailure: 'bad-card-signature', failure: 'invalid-signature' });
    await expect(resolveAgentCard(host.url, { verifyCard })).rejects.toThrow(/changed after it was signed.*\/\.well-known\/agent-card\.json/);

    host.card = CARD_JSON;
    expect(await refusal(resolveAgentCard(host.url, { verifyCard }))).toEqual({ clientFailure: 'bad-card-signature', failure: 'unsigned' });

    host.card = await signedByUs(other);
    expect(await refusal(resolveAgentCard(host.url, { verifyCard }))).toEqual({ clientFailure: 'bad-card-signature', failure: 'unknown-key' });
  });

  it('without verifyCard nothing is checked (a changed card resolves as before)', async () => {
    const trusted = await key('trusted');
    host.card = { ...(await signedByUs(trusted)), description: 'changed' };
    await expect(resolveAgentCard(host.url)).resolves.toMatchObject({ card: { description: 'changed' } });
  });

  it('a v0.3-shaped card cannot be verified and is refused as such', async () => {
    const trusted = await key('trusted');
    // A v0.3 card lists only the interfaces that speak 0.3, so the card signed here offers one.
    const card = await signedByUs(trusted, {
      ...CARD_JSON,
      supportedInterfaces: [{ url: 'http://127.0.0.1:1/a2a/rpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3' }],
    });
    host.card = agentCardToV03(card);
    expect(await refusal(resolveAgentCard(host.url, { verifyCard: { keys: [trusted.publicJwk] } }))).toEqual({
      clientFailure: 'bad-card-signature',
      failure: 'v03-card',
    });
  });

  it('jwksUrl: the key set is fetched once, and again when a signature names a kid it lacks (rotation)', async () => {
    const first = await key('2024');
    const next = await key('2025');
    host.jwks = { keys: [first.publicJwk] };
    host.card = await signedByUs(first);
    const client = await Client.connect(host.url, { verifyCard: { jwksUrl: `${host.url}/jwks.json` } });
    expect(client.card.name).toBe('Signed agent');
    expect(host.jwksReads).toBe(1);

    const verifier = new CardVerifier({ jwksUrl: `${host.url}/jwks.json` }, { fetch });
    await verifier.verifyJson(await signedByUs(first), 'card 1');
    await verifier.verifyJson(await signedByUs(first), 'card 1 again');
    expect(host.jwksReads).toBe(2); // held between checks
    host.jwks = { keys: [first.publicJwk, next.publicJwk] }; // the provider publishes the new key, then signs with it
    await expect(verifier.verifyJson(await signedByUs(next), 'card 2')).resolves.toEqual({ kid: '2025', alg: 'ES256' });
    expect(host.jwksReads).toBe(3); // read again for the unknown kid

    host.card = await signedByUs(next);
    host.jwks = { keys: [first.publicJwk] }; // a key set without the card's key: refused, after one more read
    expect(await refusal(resolveAgentCard(host.url, { verifyCard: { jwksUrl: `${host.url}/jwks.json` } }))).toEqual({
      clientFailure: 'bad-card-signature',
      failure: 'unknown-key',
    });
  });

  it('a JWKS URL that does not serve a key set is a clear not-a2a error, not a signature failure', async () => {
    const trusted = await key('trusted');
    host.card = await signedByUs(trusted);
    const error = await resolveAgentCard(host.url, { verifyCard: { jwksUrl: `${host.url}/missing.json` } }).catch((e: unknown) => e);
    expect(clientFailureOf(error)).toBe('not-a2a');
    expect((error as Error).message).toMatch(/JWKS at .*missing\.json answered HTTP 404/);
  });
});

describe('interop: a card signed by @a2a-js/sdk 1.3.0', () => {
  it('verifies in our client, and is refused once changed', async () => {
    const sdkKey = await key('sdk-key');
    const answer = await sdkCardSignature({ op: 'sign', card: CARD_JSON, privateJwk: sdkKey.privateJwk, kid: sdkKey.kid, alg: 'ES256' });
    expect(answer.ok).toBe(true);
    const sdkSigned = (answer as { result: Record<string, unknown> }).result;
    expect(sdkSigned.signatures).toHaveLength(1);
    host.card = sdkSigned;
    const client = await Client.connect(host.url, { verifyCard: { keys: [sdkKey.publicJwk] } });
    expect(client.card.skills.map((s) => s.id)).toEqual(['echo']);
    host.card = { ...sdkSigned, skills: [{ id: 'exfiltrate', name: 'Exfiltrate', description: 'x', tags: [] }] };
    expect(await refusal(Client.connect(host.url, { verifyCard: { keys: [sdkKey.publicJwk] } }))).toEqual({
      clientFailure: 'bad-card-signature',
      failure: 'invalid-signature',
    });
  });
});
