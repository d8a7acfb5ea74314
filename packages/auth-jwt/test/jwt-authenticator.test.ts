import { A2AErrorCode, ApiKeyAuthenticator, callContext } from '@a2a-polyglot/core';
import { TestIdentityProvider, type TestSigningKey } from '@a2a-polyglot/testing';
import { SignJWT } from 'jose';
import { anyAuthenticator, JwtAuthenticator, type JwtAuthenticatorOptions } from '../src/index.js';

const bearer = (t: string) => callContext('JSONRPC', { authorization: `Bearer ${t}` });

describe('JwtAuthenticator', () => {
  let idp: TestIdentityProvider;
  let first: TestSigningKey;
  const make = (extra: Partial<JwtAuthenticatorOptions> = {}) =>
    new JwtAuthenticator({ jwksUrl: idp.jwksUrl, issuer: idp.issuer, audience: idp.audience, jwksCooldownMs: 0, ...extra });

  beforeEach(async () => {
    idp = await new TestIdentityProvider().start();
    first = await idp.newKey('k1');
    idp.published = [first.jwk];
  });
  afterEach(() => idp.close());

  const alice = () => `jwt:${idp.issuer}#alice`;

  it('accepts a valid token and names the caller jwt:<iss>#<sub>', async () => {
    const principal = await make().authenticate(bearer(await idp.sign(first, { scope: 'a2a:send' })));
    expect(principal.id).toBe(`jwt:https://idp.test#alice`);
    expect(principal.attributes?.claims).toMatchObject({ iss: idp.issuer, aud: idp.audience, scope: 'a2a:send' });
  });

  it.each([
    ['no Authorization header', () => callContext('GRPC', {}), /Missing credentials/],
    ['a token that is not a JWT', () => bearer('not-a-jwt'), /Invalid token/],
  ])('refuses %s as Unauthenticated', async (_, ctx, message) => {
    await expect(make().authenticate(ctx())).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated, message: expect.stringMatching(message) });
  });

  it('checks issuer, audience and expiry, with clock tolerance', async () => {
    await expect(make().authenticate(bearer(await idp.sign(first, {}, { audience: 'someone-else' })))).rejects.toMatchObject({
      code: A2AErrorCode.Unauthenticated,
      message: 'Invalid token: aud claim check failed',
    });
    await expect(make().authenticate(bearer(await idp.sign(first, {}, { issuer: 'https://evil.test' })))).rejects.toMatchObject({
      code: A2AErrorCode.Unauthenticated,
      message: 'Invalid token: iss claim check failed',
    });
    const now = Math.floor(Date.now() / 1000);
    const expiredLongAgo = await idp.sign(first, {}, { expiresAt: now - 120 });
    await expect(make().authenticate(bearer(expiredLongAgo))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated, message: 'Invalid token: expired' });
    const expiredJustNow = await idp.sign(first, {}, { expiresAt: now - 10 });
    await expect(make().authenticate(bearer(expiredJustNow))).resolves.toMatchObject({ id: alice() });
    await expect(make({ clockToleranceSec: 0 }).authenticate(bearer(expiredJustNow))).rejects.toMatchObject({ message: 'Invalid token: expired' });
  });

  it('keeps the same sub from two issuers apart, and an issuer with # in it from a longer sub', async () => {
    const both = make({ issuer: [idp.issuer, 'https://other.test', 'https://idp.test#x'] });
    const ids = await Promise.all(
      [
        idp.sign(first),
        idp.sign(first, {}, { issuer: 'https://other.test' }),
        idp.sign(first, { sub: 'x#alice' }),
        idp.sign(first, {}, { issuer: 'https://idp.test#x' }),
      ].map(async (token) => (await both.authenticate(bearer(await token))).id),
    );
    expect(ids).toEqual(['jwt:https://idp.test#alice', 'jwt:https://other.test#alice', 'jwt:https://idp.test#x#alice', 'jwt:https://idp.test%23x#alice']);
  });

  it('requires exp by default (a token without one never expires), unless told not to', async () => {
    const forever = await idp.sign(first, {}, { expiresAt: null });
    await expect(make().authenticate(bearer(forever))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated, message: 'Invalid token: no exp claim' });
    await expect(make({ requireExpiry: false }).authenticate(bearer(forever))).resolves.toMatchObject({ id: alice() });
  });

  it('caps the lifetime (exp after iat, or after now without iat): 24 h by default, configurable', async () => {
    const now = Math.floor(Date.now() / 1000);
    const farAway = await idp.sign(first, {}, { expiresAt: 1e300 });
    const farAwayNoIat = await idp.sign(first, {}, { expiresAt: 1e300, issuedAt: null });
    const longAgoForAYear = await idp.sign(first, {}, { issuedAt: now - 300 * 86_400, expiresAt: now + 65 * 86_400 });
    for (const token of [farAway, farAwayNoIat, longAgoForAYear]) {
      await expect(make().authenticate(bearer(token))).rejects.toMatchObject({
        code: A2AErrorCode.Unauthenticated,
        message: 'Invalid token: it lives longer than the 86400 s this agent accepts',
      });
    }
    const aDay = await idp.sign(first, {}, { expiresAt: '23h' });
    await expect(make().authenticate(bearer(aDay))).resolves.toMatchObject({ id: alice() });
    await expect(make({ maxLifetimeSec: 3600 }).authenticate(bearer(aDay))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
    await expect(make({ maxLifetimeSec: 3600 }).authenticate(bearer(await idp.sign(first, {}, { expiresAt: '1h' })))).resolves.toMatchObject({
      id: alice(),
    });
  });

  it('refuses a forged signature and an HMAC or unsigned token', async () => {
    const impostor = await idp.newKey('k1');
    await expect(make().authenticate(bearer(await idp.sign(impostor)))).rejects.toMatchObject({
      code: A2AErrorCode.Unauthenticated,
      message: 'Invalid token: bad signature',
    });
    const hmac = await new SignJWT({ sub: 'alice' })
      .setProtectedHeader({ alg: 'HS256', kid: 'k1' })
      .setIssuer(idp.issuer)
      .setAudience(idp.audience)
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('x'.repeat(32)));
    await expect(make().authenticate(bearer(hmac))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'alice', iss: idp.issuer, aud: idp.audience })).toString('base64url')}.`;
    await expect(make().authenticate(bearer(unsigned))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
  });

  it('follows key rotation: a token with a new key id makes it fetch the key set again', async () => {
    const authenticator = make();
    await authenticator.authenticate(bearer(await idp.sign(first)));
    const fetchesBefore = idp.fetches;
    await authenticator.authenticate(bearer(await idp.sign(first)));
    expect(idp.fetches).toBe(fetchesBefore); // cached
    const second = await idp.newKey('k2');
    idp.published = [second.jwk];
    await expect(authenticator.authenticate(bearer(await idp.sign(second)))).resolves.toMatchObject({ id: alice() });
    expect(idp.fetches).toBe(fetchesBefore + 1);
  });

  it('answers Unavailable (retry later), not Unauthenticated, when the key set cannot be fetched', async () => {
    idp.down = true;
    await expect(make({ jwksTimeoutMs: 2000 }).authenticate(bearer(await idp.sign(first)))).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
  });

  it('requires the configured scopes (space-separated scope, or scp array)', async () => {
    const strict = make({ requiredScopes: ['a2a:send'] });
    await expect(strict.authenticate(bearer(await idp.sign(first, { scope: 'read a2a:send' })))).resolves.toMatchObject({ id: alice() });
    await expect(strict.authenticate(bearer(await idp.sign(first, { scp: ['a2a:send'] })))).resolves.toMatchObject({ id: alice() });
    await expect(strict.authenticate(bearer(await idp.sign(first, { scope: 'read' })))).rejects.toMatchObject({ code: A2AErrorCode.PermissionDenied });
  });

  it('declares itself in the card as an HTTP bearer JWT scheme, or OpenID Connect when given a discovery URL', () => {
    expect(make().securityScheme()).toEqual({
      scheme: { $case: 'httpAuthSecurityScheme', value: { description: 'OAuth2 bearer token (JWT)', scheme: 'Bearer', bearerFormat: 'JWT' } },
    });
    expect(make({ openIdConnectUrl: `${idp.issuer}/.well-known/openid-configuration` }).securityScheme().scheme).toMatchObject({
      $case: 'openIdConnectSecurityScheme',
    });
  });

  it('anyAuthenticator: JWTs and API keys side by side; an unreachable provider is reported as such', async () => {
    const either = anyAuthenticator(make({ jwksTimeoutMs: 2000 }), new ApiKeyAuthenticator({ keys: { 'static-key': 'svc' } }));
    await expect(either.authenticate(bearer(await idp.sign(first)))).resolves.toMatchObject({ id: alice() });
    await expect(either.authenticate(bearer('static-key'))).resolves.toMatchObject({ id: 'key:svc' });
    await expect(either.authenticate(bearer('wrong'))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
    idp.down = true;
    const fresh = anyAuthenticator(make({ jwksTimeoutMs: 2000 }), new ApiKeyAuthenticator({ keys: { 'static-key': 'svc' } }));
    await expect(fresh.authenticate(bearer(await idp.sign(first)))).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
  });
});
