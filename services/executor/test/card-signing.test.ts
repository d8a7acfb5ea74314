/**
 * Signed agent cards through the service (`cardSigning`): the public card in every generation,
 * the extended card on every binding, mounted agents too; the official SDK (@a2a-js/sdk 1.3.0)
 * verifies what we serve; bad keys are configuration errors at startup.
 */
import { generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, clientFailureOf, WEBSOCKET_BINDING, webSocketTransportFactory, type WebSocketConstructor } from '@a2a-polyglot/client';
import type { JWK } from '@a2a-polyglot/card-signing';
import { grpcTransportFactory } from '@a2a-polyglot/client/grpc';
import { silentLogger } from '@a2a-polyglot/core';
import { sdkCardSignature } from '@a2a-polyglot/testing';
import { WebSocket } from 'ws';
import { loadConfig } from '../src/config.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { json, V1 } from './helpers.js';

jest.setTimeout(60_000);

const WS = WebSocket as unknown as WebSocketConstructor;
const API_KEY = 'card-test-key';
const dir = mkdtempSync(join(tmpdir(), 'card-signing-'));

/** Writes a key file; returns its path and the public JWK (with `kid`) verifiers trust. */
function keyFile(name: string, key: { privateKey: KeyObject; publicKey: KeyObject }, kid: string, form: 'pem' | 'jwk' = 'pem') {
  const path = join(dir, name);
  const privateJwk = { ...key.privateKey.export({ format: 'jwk' }), ...(form === 'jwk' && { kid }) };
  writeFileSync(path, form === 'pem' ? (key.privateKey.export({ type: 'pkcs8', format: 'pem' }) as string) : JSON.stringify(privateJwk));
  const algs: Record<string, string> = { ec: 'ES256', rsa: 'RS256', ed25519: 'EdDSA' };
  const jwk: JWK = { ...(key.publicKey.export({ format: 'jwk' }) as JWK), kid, alg: algs[key.publicKey.asymmetricKeyType ?? ''] };
  return { path, jwk };
}

const ec = keyFile('ec.pem', generateKeyPairSync('ec', { namedCurve: 'P-256' }), 'ec-2025');

const started: RunningExecutor[] = [];
async function start(config: Parameters<typeof startExecutor>[0]): Promise<RunningExecutor> {
  const running = await startExecutor(
    { host: '127.0.0.1', port: 0, grpcPort: 0, demo: { chunkDelayMs: 0 }, shutdownGraceMs: 200, ...config },
    { logger: silentLogger },
  );
  started.push(running);
  return running;
}
afterAll(async () => {
  await Promise.all(started.splice(0).map((r) => r.close()));
});

describe('a signing executor', () => {
  let running: RunningExecutor;
  beforeAll(async () => {
    running = await start({
      cardSigning: { keyFile: ec.path, kid: 'ec-2025', jku: 'https://keys.example/jwks.json' },
      auth: { apiKeys: { [API_KEY]: 'alice' } },
      agent: { capabilities: { extendedAgentCard: true } },
    });
  });

  it('the official SDK client resolves the card and verifies the extended card it then fetches', async () => {
    // Without auth: @a2a-js/sdk 1.3.0 verifies the card its client DECODED, and its canonicalizer
    // re-reads that object as JSON, which drops oneof members: securitySchemes vanish from the
    // payload, so a card with security schemes fails there even when the SDK signed it itself.
    // The SDK's verifier on the card JSON as served (next test) has no such problem.
    const open = await start({ cardSigning: { keyFile: ec.path, kid: 'ec-2025' }, agent: { capabilities: { extendedAgentCard: true } } });
    const answer = await sdkCardSignature({ op: 'resolve-verify', url: open.url, keys: [ec.jwk] });
    expect(answer).toEqual({ ok: true, result: { name: 'A2A Polyglot Demo Agent', skills: ['echo'], signatures: 1 } });
    const wrongKey = keyFile('other.pem', generateKeyPairSync('ec', { namedCurve: 'P-256' }), 'ec-2025');
    expect(await sdkCardSignature({ op: 'resolve-verify', url: open.url, keys: [wrongKey.jwk] })).toMatchObject({ ok: false });
  });

  it('the official SDK verifies the extended card as served over JSON-RPC and REST (security schemes included)', async () => {
    const rpc = await json(
      await fetch(`${running.url}/a2a/rpc`, {
        method: 'POST',
        headers: { ...V1, 'content-type': 'application/json', 'x-api-key': API_KEY },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard', params: {} }),
      }),
    );
    const rest = await json(await fetch(`${running.url}/a2a/extendedAgentCard`, { headers: { ...V1, 'x-api-key': API_KEY } }));
    for (const card of [rpc.result, rest]) {
      expect(Object.keys(card.securitySchemes)).toEqual(['apiKey', 'bearer']);
      expect(await sdkCardSignature({ op: 'verify', card, keys: [ec.jwk] })).toEqual({ ok: true, result: 'verified' });
    }
  });

  it('the official SDK verifies the public card as served: pure v1.0 and merged; the header names alg, kid, typ and jku', async () => {
    const pure = await json(await fetch(`${running.url}/.well-known/agent-card.json`, { headers: V1 }));
    const merged = await json(await fetch(`${running.url}/.well-known/agent-card.json`));
    expect(merged.url).toBe(`${running.url}/a2a/rpc`);
    for (const card of [pure, merged]) expect(await sdkCardSignature({ op: 'verify', card, keys: [ec.jwk] })).toEqual({ ok: true, result: 'verified' });
    const header = JSON.parse(Buffer.from(pure.signatures[0].protected, 'base64url').toString('utf8'));
    expect(header).toEqual({ alg: 'ES256', kid: 'ec-2025', typ: 'JOSE', jku: 'https://keys.example/jwks.json' });
  });

  it("the v0.3 extended card (JSON-RPC agent/getAuthenticatedExtendedCard) carries the v1.0 card's signatures, as the SDK's v0.3 layer does", async () => {
    const post = (body: unknown, headers: Record<string, string>) =>
      fetch(`${running.url}/a2a/rpc`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': API_KEY, ...headers },
        body: JSON.stringify(body),
      }).then(json);
    const v1 = await post({ jsonrpc: '2.0', id: 1, method: 'GetExtendedAgentCard', params: {} }, V1);
    const v03 = await post({ jsonrpc: '2.0', id: 2, method: 'agent/getAuthenticatedExtendedCard' }, {});
    expect(v03.result.protocolVersion).toBe('0.3.0');
    expect(v03.result.signatures).toEqual(v1.result.signatures);
  });

  it.each(['jsonrpc', 'rest', 'websocket', 'grpc'] as const)('our client verifies the card and the extended card over %s', async (binding) => {
    const client = await Client.connect(running.url, {
      bindings: [binding],
      transports: { GRPC: grpcTransportFactory, [WEBSOCKET_BINDING]: webSocketTransportFactory({ WebSocket: WS }) },
      apiKey: API_KEY,
      verifyCard: { keys: [ec.jwk] },
    });
    try {
      const extended = await client.getExtendedAgentCard();
      expect(extended.signatures).toHaveLength(1);
    } finally {
      await client.close();
    }
  });

  it('an extended card read over a v0.3 interface cannot be verified and is refused as such', async () => {
    const card = await json(await fetch(`${running.url}/.well-known/agent-card.json`, { headers: V1 }));
    const v03 = { ...card, supportedInterfaces: card.supportedInterfaces.filter((i: { protocolVersion: string }) => i.protocolVersion === '0.3') };
    const client = new Client((await import('@a2a-polyglot/model')).AgentCard.fromJSON(v03), {
      bindings: ['jsonrpc'],
      apiKey: API_KEY,
      verifyCard: { keys: [ec.jwk] },
    });
    const error = await client.getExtendedAgentCard().catch((e: unknown) => e);
    expect(clientFailureOf(error)).toBe('bad-card-signature');
    expect((error as Error).message).toMatch(/read over a v0\.3 interface/);
  });
});

describe('signing keys', () => {
  it('a JWK file signs too, its kid the default; every mounted agent serves a signed card', async () => {
    const ed = keyFile('ed.jwk.json', generateKeyPairSync('ed25519'), 'ed-key', 'jwk');
    const running = await start({
      cardSigning: { keyFile: ed.path },
      agents: [
        { id: 'main', handler: 'demo' },
        { id: 'other', handler: 'demo' },
      ],
    });
    for (const path of ['/.well-known/agent-card.json', '/agents/other/.well-known/agent-card.json']) {
      const card = await json(await fetch(`${running.url}${path}`, { headers: V1 }));
      expect(await sdkCardSignature({ op: 'verify', card, keys: [ed.jwk] })).toEqual({ ok: true, result: 'verified' });
    }
  });

  it('an RSA PEM key signs RS256', async () => {
    const rsa = keyFile('rsa.pem', generateKeyPairSync('rsa', { modulusLength: 2048 }), 'rsa-key');
    const running = await start({ cardSigning: { keyFile: rsa.path, kid: 'rsa-key' } });
    const client = await Client.connect(running.url, { verifyCard: { keys: [rsa.jwk] } });
    expect(client.card.signatures).toHaveLength(1);
  });

  it('bad keys and settings are configuration errors at startup, naming the key', async () => {
    const startError = (cardSigning: Record<string, unknown>) =>
      start({ cardSigning } as never).then(
        () => 'started',
        (e: Error) => e.message,
      );
    expect(await startError({ keyFile: join(dir, 'missing.pem'), kid: 'k' })).toMatch(/cardSigning\.keyFile .*missing\.pem cannot be read/);
    expect(await startError({ keyFile: ec.path })).toMatch(/cardSigning\.kid \(A2A_CARD_SIGNING_KID\) is required/);
    expect(await startError({ keyFile: ec.path, kid: 'k', alg: 'RS256' })).toMatch(
      /cardSigning\.alg RS256 does not fit the EC prime256v1 key .* \(it signs ES256\)/,
    );
    const p384 = keyFile('p384.pem', generateKeyPairSync('ec', { namedCurve: 'P-384' }), 'k');
    expect(await startError({ keyFile: p384.path, kid: 'k' })).toMatch(
      /is a EC secp384r1 key; card signing takes RSA \(RS256\), P-256 \(ES256\) or Ed25519 \(EdDSA\)/,
    );
    const small = keyFile('rsa1024.pem', generateKeyPairSync('rsa', { modulusLength: 1024 }), 'k');
    expect(await startError({ keyFile: small.path, kid: 'k' })).toMatch(/RSA key under 2048 bits/);
    const publicOnly = join(dir, 'public.jwk.json');
    writeFileSync(publicOnly, JSON.stringify(ec.jwk));
    expect(await startError({ keyFile: publicOnly, kid: 'k' })).toMatch(/holds a public JWK/);
    const junk = join(dir, 'junk.pem');
    writeFileSync(junk, 'not a key');
    expect(await startError({ keyFile: junk, kid: 'k' })).toMatch(/is not a PEM private key/);
    expect(await startError({ kid: 'k' })).toMatch(/cardSigning\.kid needs cardSigning\.keyFile/);
  });

  it('is read from A2A_CARD_SIGNING_* and --card-signing-* too, the key file resolved against the config file', () => {
    const env = {
      A2A_CARD_SIGNING_KEY_FILE: ec.path,
      A2A_CARD_SIGNING_KID: 'from-env',
      A2A_CARD_SIGNING_ALG: 'ES256',
      A2A_CARD_SIGNING_JKU: 'https://k.example/jwks',
    };
    expect(loadConfig({ argv: [], env, cwd: dir }).config.cardSigning).toEqual({
      keyFile: ec.path,
      kid: 'from-env',
      alg: 'ES256',
      jku: 'https://k.example/jwks',
    });
    expect(loadConfig({ argv: ['--card-signing-key-file', 'ec.pem', '--card-signing-kid=flag'], env: {}, cwd: dir }).config.cardSigning).toMatchObject({
      keyFile: ec.path,
      kid: 'flag',
    });
    const file = join(dir, 'config.json');
    writeFileSync(file, JSON.stringify({ cardSigning: { keyFile: 'ec.pem', kid: 'file' } }));
    expect(loadConfig({ argv: ['--config', file], env: {}, cwd: '/' }).config.cardSigning).toMatchObject({ keyFile: ec.path, kid: 'file' });
    expect(() => loadConfig({ argv: [], env: { A2A_CARD_SIGNING_ALG: 'HS256' }, cwd: dir })).toThrow(/A2A_CARD_SIGNING_ALG must be one of/);
  });
});
