import { createServer, type Server } from 'node:http';
import { A2AErrorCode, ApiKeyAuthenticator, callContext } from '@a2a-polyglot/core';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { anyAuthenticator, JwtAuthenticator, type JwtAuthenticatorOptions } from '../src/index.js';

type Key = Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];

/** A local JWKS endpoint whose key set a test can swap (key rotation) or take down. */
class JwksServer {
  keys: JWK[] = [];
  fetches = 0;
  down = false;
  private server!: Server;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      this.fetches++;
      if (this.down) return void res.socket?.destroy();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: this.keys }));
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/jwks.json`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function keyPair(kid: string): Promise<{ privateKey: Key; jwk: JWK }> {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  return { privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' } };
}

const ISSUER = 'https://issuer.test';
const AUDIENCE = 'a2a://agent';

function token(key: Key, kid: string, claims: Record<string, unknown> = {}, expiresIn: string | number = '5m'): Promise<string> {
  return new SignJWT({ sub: 'alice', ...claims })
    .setProtectedHeader({ alg: 'RS256', kid })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(key);
}

const bearer = (t: string) => callContext('JSONRPC', { authorization: `Bearer ${t}` });

describe('JwtAuthenticator', () => {
  let jwks: JwksServer;
  let first: { privateKey: Key; jwk: JWK };
  const make = (extra: Partial<JwtAuthenticatorOptions> = {}) => new JwtAuthenticator({ jwksUrl: jwks.url, issuer: ISSUER, audience: AUDIENCE, jwksCooldownMs: 0, ...extra });

  beforeEach(async () => {
    jwks = new JwksServer();
    await jwks.start();
    first = await keyPair('k1');
    jwks.keys = [first.jwk];
  });
  afterEach(() => jwks.close());

  it('accepts a valid token and names the caller by its sub claim', async () => {
    const principal = await make().authenticate(bearer(await token(first.privateKey, 'k1', { scope: 'a2a:send' })));
    expect(principal.id).toBe('alice');
    expect(principal.attributes?.claims).toMatchObject({ iss: ISSUER, aud: AUDIENCE, scope: 'a2a:send' });
  });

  it.each([
    ['no Authorization header', () => callContext('GRPC', {}), /Missing credentials/],
    ['a token that is not a JWT', () => bearer('not-a-jwt'), /Invalid token/],
  ])('refuses %s as Unauthenticated', async (_, ctx, message) => {
    await expect(make().authenticate(ctx())).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated, message: expect.stringMatching(message) });
  });

  it('checks issuer, audience and expiry, with clock tolerance', async () => {
    const wrongAudience = await new SignJWT({ sub: 'alice' }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuer(ISSUER).setAudience('someone-else').setExpirationTime('5m').sign(first.privateKey);
    await expect(make().authenticate(bearer(wrongAudience))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated, message: 'Invalid token: aud claim check failed' });
    const wrongIssuer = await new SignJWT({ sub: 'alice' }).setProtectedHeader({ alg: 'RS256', kid: 'k1' }).setIssuer('https://evil.test').setAudience(AUDIENCE).setExpirationTime('5m').sign(first.privateKey);
    await expect(make().authenticate(bearer(wrongIssuer))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated, message: 'Invalid token: iss claim check failed' });
    const now = Math.floor(Date.now() / 1000);
    const expiredLongAgo = await token(first.privateKey, 'k1', {}, now - 120);
    await expect(make().authenticate(bearer(expiredLongAgo))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated, message: 'Invalid token: expired' });
    const expiredJustNow = await token(first.privateKey, 'k1', {}, now - 10);
    await expect(make().authenticate(bearer(expiredJustNow))).resolves.toMatchObject({ id: 'alice' });
    await expect(make({ clockToleranceSec: 0 }).authenticate(bearer(expiredJustNow))).rejects.toMatchObject({ message: 'Invalid token: expired' });
  });

  it('refuses a forged signature and an HMAC or unsigned token', async () => {
    const other = await keyPair('k1');
    await expect(make().authenticate(bearer(await token(other.privateKey, 'k1')))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated, message: 'Invalid token: bad signature' });
    const hmac = await new SignJWT({ sub: 'alice' }).setProtectedHeader({ alg: 'HS256', kid: 'k1' }).setIssuer(ISSUER).setAudience(AUDIENCE).setExpirationTime('5m').sign(new TextEncoder().encode('x'.repeat(32)));
    await expect(make().authenticate(bearer(hmac))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(JSON.stringify({ sub: 'alice', iss: ISSUER, aud: AUDIENCE })).toString('base64url')}.`;
    await expect(make().authenticate(bearer(unsigned))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
  });

  it('follows key rotation: a token with a new key id makes it fetch the key set again', async () => {
    const authenticator = make();
    await authenticator.authenticate(bearer(await token(first.privateKey, 'k1')));
    const fetchesBefore = jwks.fetches;
    await authenticator.authenticate(bearer(await token(first.privateKey, 'k1')));
    expect(jwks.fetches).toBe(fetchesBefore); // cached
    const second = await keyPair('k2');
    jwks.keys = [second.jwk];
    await expect(authenticator.authenticate(bearer(await token(second.privateKey, 'k2')))).resolves.toMatchObject({ id: 'alice' });
    expect(jwks.fetches).toBe(fetchesBefore + 1);
  });

  it('answers Unavailable (retry later), not Unauthenticated, when the key set cannot be fetched', async () => {
    jwks.down = true;
    await expect(make({ jwksTimeoutMs: 2000 }).authenticate(bearer(await token(first.privateKey, 'k1')))).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
  });

  it('requires the configured scopes (space-separated scope, or scp array)', async () => {
    const strict = make({ requiredScopes: ['a2a:send'] });
    await expect(strict.authenticate(bearer(await token(first.privateKey, 'k1', { scope: 'read a2a:send' })))).resolves.toMatchObject({ id: 'alice' });
    await expect(strict.authenticate(bearer(await token(first.privateKey, 'k1', { scp: ['a2a:send'] })))).resolves.toMatchObject({ id: 'alice' });
    await expect(strict.authenticate(bearer(await token(first.privateKey, 'k1', { scope: 'read' })))).rejects.toMatchObject({ code: A2AErrorCode.PermissionDenied });
  });

  it('declares itself in the card as an HTTP bearer JWT scheme, or OpenID Connect when given a discovery URL', () => {
    expect(make().securityScheme()).toEqual({ scheme: { $case: 'httpAuthSecurityScheme', value: { description: 'OAuth2 bearer token (JWT)', scheme: 'Bearer', bearerFormat: 'JWT' } } });
    expect(make({ openIdConnectUrl: `${ISSUER}/.well-known/openid-configuration` }).securityScheme().scheme).toMatchObject({ $case: 'openIdConnectSecurityScheme' });
  });

  it('anyAuthenticator: JWTs and API keys side by side; an unreachable provider is reported as such', async () => {
    const either = anyAuthenticator(make({ jwksTimeoutMs: 2000 }), new ApiKeyAuthenticator({ keys: { 'static-key': 'svc' } }));
    await expect(either.authenticate(bearer(await token(first.privateKey, 'k1')))).resolves.toMatchObject({ id: 'alice' });
    await expect(either.authenticate(bearer('static-key'))).resolves.toMatchObject({ id: 'svc' });
    await expect(either.authenticate(bearer('wrong'))).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
    jwks.down = true;
    const fresh = anyAuthenticator(make({ jwksTimeoutMs: 2000 }), new ApiKeyAuthenticator({ keys: { 'static-key': 'svc' } }));
    await expect(fresh.authenticate(bearer(await token(first.privateKey, 'k1')))).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
  });
});
