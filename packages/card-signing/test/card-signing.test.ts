import { AgentCard } from '@a2a-polyglot/model';
import { sdkCardSignature, testAgentCard } from '@a2a-polyglot/testing';
import { mergedAgentCard } from '@a2a-polyglot/v03/json';
import { base64url, decodeProtectedHeader, exportJWK, generateKeyPair, type JWK } from 'jose';
import {
  canonicalCardJsonPayload,
  canonicalCardPayload,
  CardSignatureError,
  createCardSigner,
  withSignatures,
  verifyCardSignature,
  type CardSigningAlgorithm,
} from '../src/index.js';

jest.setTimeout(60_000);

/** A card with every kind of member: interfaces, security, skills, extensions with params, empty values. */
function richCard(): AgentCard {
  return AgentCard.fromJSON({
    name: 'Signed agent',
    description: 'Déjà vu — “quotes”, emoji 🤖 and \u2028 separators',
    supportedInterfaces: [
      { url: 'https://agent.example/a2a/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: 'https://agent.example/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: '' },
    ],
    provider: { organization: 'Example', url: 'https://example.com' },
    version: '1.2.3',
    documentationUrl: 'https://agent.example/docs',
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [{ uri: 'https://ext.example/v1', description: '', required: false, params: { depth: 2, ratio: 0.5, list: [], nested: { empty: '' } } }],
    },
    securitySchemes: { apiKey: { apiKeySecurityScheme: { description: 'key', location: 'header', name: 'x-api-key' } } },
    securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Echoes', tags: ['demo'], examples: ['hi'], inputModes: [], outputModes: ['text/plain'] }],
  });
}

interface TestKey {
  readonly alg: CardSigningAlgorithm;
  readonly kid: string;
  readonly privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  readonly publicJwk: JWK;
  readonly privateJwk: JWK;
}

async function newKey(alg: CardSigningAlgorithm, kid = `${alg.toLowerCase()}-key`): Promise<TestKey> {
  const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true, ...(alg === 'EdDSA' && { crv: 'Ed25519' }) });
  return { alg, kid, privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid, alg }, privateJwk: { ...(await exportJWK(privateKey)), kid, alg } };
}

const cardJson = (card: AgentCard) => AgentCard.toJSON(card) as Record<string, unknown>;

describe('canonical payload', () => {
  it('is exactly what @a2a-js/sdk 1.3.0 canonicalizes, for a card with every kind of member', async () => {
    const card = richCard();
    const sdk = await sdkCardSignature({ op: 'canonical', card: cardJson(card) });
    expect(sdk).toEqual({ ok: true, result: canonicalCardPayload(card) });
  });

  it('leaves out signatures, empty members and members outside the v1.0 schema (the v0.3 members of a merged card)', () => {
    const card = richCard();
    const payload = canonicalCardPayload(card);
    expect(canonicalCardPayload({ ...card, signatures: [{ protected: 'x', signature: 'y', header: undefined }] })).toBe(payload);
    expect(canonicalCardJsonPayload(mergedAgentCard(cardJson(card)))).toBe(payload);
    expect(payload).not.toContain('securityRequirements'); // its only member empties out, as in the SDKs
    expect(payload).not.toContain('"tenant"');
    expect(payload).toContain('"pushNotifications":false');
    expect(payload).toContain('"depth":2');
    // RFC 8785: sorted keys, no whitespace.
    expect(payload.startsWith('{"capabilities":{"extensions":[{"params":{"depth":2,"ratio":0.5},"uri":"https://ext.example/v1"}]')).toBe(true);
  });

  it('covers what matters: the interfaces, the skills, the security schemes', () => {
    const card = richCard();
    const payload = canonicalCardPayload(card);
    const changed = (edit: Partial<AgentCard>) => canonicalCardPayload({ ...card, ...edit });
    expect(changed({ supportedInterfaces: [] })).not.toBe(payload);
    expect(changed({ skills: [] })).not.toBe(payload);
    expect(changed({ securitySchemes: {} })).not.toBe(payload);
  });
});

describe('signing and verifying', () => {
  it.each(['ES256', 'RS256', 'EdDSA'] as const)('%s: a detached JWS, protected header {alg, kid, typ: JOSE, jku}, that verifies', async (alg) => {
    const key = await newKey(alg);
    const signer = createCardSigner({ key: key.privateKey, alg, kid: key.kid, jku: 'https://agent.example/jwks.json' });
    const signed = await withSignatures(richCard(), signer);
    expect(signed.signatures).toHaveLength(1);
    const [signature] = signed.signatures;
    expect(decodeProtectedHeader(signature!)).toEqual({ alg, kid: key.kid, typ: 'JOSE', jku: 'https://agent.example/jwks.json' });
    expect(signature!.header).toBeUndefined();
    await expect(verifyCardSignature(signed, { keys: [key.publicJwk] })).resolves.toEqual({ kid: key.kid, alg });
  });

  it('a private JWK signs too', async () => {
    const key = await newKey('ES256');
    const signed = await withSignatures(richCard(), createCardSigner({ key: key.privateJwk, alg: 'ES256', kid: key.kid }));
    await expect(verifyCardSignature(signed, { keys: [key.publicJwk] })).resolves.toMatchObject({ kid: key.kid });
  });

  it('a card changed after signing is refused as invalid-signature; unsigned, unknown keys and junk are named too', async () => {
    const key = await newKey('ES256');
    const other = await newKey('ES256', 'other');
    const signed = await withSignatures(richCard(), createCardSigner({ key: key.privateKey, alg: 'ES256', kid: key.kid }));
    const failure = (card: AgentCard, keys: JWK[] = [key.publicJwk]) =>
      verifyCardSignature(card, { keys }).then(
        () => 'verified',
        (error: unknown) => (error instanceof CardSignatureError ? error.failure : `not a CardSignatureError: ${String(error)}`),
      );
    const tampered = { ...signed, supportedInterfaces: [{ url: 'https://evil.example/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: '' }] };
    expect(await failure(tampered)).toBe('invalid-signature');
    expect(await failure({ ...signed, description: 'changed' })).toBe('invalid-signature');
    expect(await failure({ ...signed, signatures: [] })).toBe('unsigned');
    expect(await failure(signed, [other.publicJwk])).toBe('unknown-key');
    // A key that claims the signature's kid but is not the signer's.
    expect(await failure(signed, [{ ...other.publicJwk, kid: key.kid }])).toBe('invalid-signature');
    expect(await failure({ ...signed, signatures: [{ protected: 'not-base64-json', signature: 'x', header: undefined }] })).toBe('malformed');
    const noKid = base64url.encode(JSON.stringify({ alg: 'ES256', typ: 'JOSE' }));
    expect(await failure({ ...signed, signatures: [{ protected: noKid, signature: signed.signatures[0]!.signature, header: undefined }] })).toBe('malformed');
    await expect(verifyCardSignature(tampered, { keys: [key.publicJwk] })).rejects.toThrow(/changed after it was signed/);
  });

  it('one good signature among several is enough (key rotation); a symmetric key is not accepted by default', async () => {
    const old = await newKey('RS256', 'old');
    const current = await newKey('ES256', 'current');
    const card = richCard();
    const signatures = [
      ...(await createCardSigner({ key: old.privateKey, alg: 'RS256', kid: 'old' }).sign(card)),
      ...(await createCardSigner({ key: current.privateKey, alg: 'ES256', kid: 'current' }).sign(card)),
    ];
    await expect(verifyCardSignature({ ...card, signatures }, { keys: [current.publicJwk] })).resolves.toEqual({ kid: 'current', alg: 'ES256' });
    const hs = { protected: base64url.encode(JSON.stringify({ alg: 'HS256', kid: 'shared', typ: 'JOSE' })), signature: 'x', header: undefined };
    await expect(verifyCardSignature({ ...card, signatures: [hs] }, { keys: [{ kty: 'oct', k: 'c2VjcmV0', kid: 'shared' }] })).rejects.toMatchObject({
      failure: 'unknown-key',
    });
  });

  it('signs each card content once: the same card keeps its signature, a changed card is signed anew', async () => {
    const key = await newKey('ES256');
    const signer = createCardSigner({ key: key.privateKey, alg: 'ES256', kid: key.kid });
    const card = richCard();
    const first = await signer.sign(card);
    expect(await signer.sign({ ...card })).toEqual(first); // ECDSA is randomized: equal only because it is cached
    const changed = await signer.sign({ ...card, version: '9.9.9' });
    expect(changed[0]!.signature).not.toBe(first[0]!.signature);
    await expect(verifyCardSignature({ ...card, version: '9.9.9', signatures: changed }, { keys: [key.publicJwk] })).resolves.toBeDefined();
  });
});

describe('interop with @a2a-js/sdk 1.3.0', () => {
  it.each(['ES256', 'RS256', 'EdDSA'] as const)('its verifier accepts our %s signature, and refuses it once the card is changed', async (alg) => {
    const key = await newKey(alg);
    const signed = cardJson(await withSignatures(richCard(), createCardSigner({ key: key.privateKey, alg, kid: key.kid })));
    expect(await sdkCardSignature({ op: 'verify', card: signed, keys: [key.publicJwk] })).toEqual({ ok: true, result: 'verified' });
    expect(await sdkCardSignature({ op: 'verify', card: mergedAgentCard(signed), keys: [key.publicJwk] })).toEqual({ ok: true, result: 'verified' });
    expect(await sdkCardSignature({ op: 'verify', card: { ...signed, version: '6.6.6' }, keys: [key.publicJwk] })).toMatchObject({ ok: false });
  });

  it.each(['ES256', 'RS256', 'EdDSA'] as const)('we accept a card it signed with %s, and refuse it once changed', async (alg) => {
    const key = await newKey(alg);
    const answer = await sdkCardSignature({ op: 'sign', card: cardJson(richCard()), privateJwk: key.privateJwk, kid: key.kid, alg });
    expect(answer.ok).toBe(true);
    const sdkSigned = AgentCard.fromJSON((answer as { result: unknown }).result);
    await expect(verifyCardSignature(sdkSigned, { keys: [key.publicJwk] })).resolves.toEqual({ kid: key.kid, alg });
    await expect(verifyCardSignature({ ...sdkSigned, name: 'Impostor' }, { keys: [key.publicJwk] })).rejects.toMatchObject({ failure: 'invalid-signature' });
  });

  it('testAgentCard (the minimal card) canonicalizes the same on both sides too', async () => {
    const card = testAgentCard();
    expect(await sdkCardSignature({ op: 'canonical', card: cardJson(card) })).toEqual({ ok: true, result: canonicalCardPayload(card) });
  });
});
