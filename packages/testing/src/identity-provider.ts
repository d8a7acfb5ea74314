import { createServer, type Server } from 'node:http';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';

/** A signing key of the {@link TestIdentityProvider}, with the key id tokens name. */
export interface TestSigningKey {
  readonly kid: string;
  /** The signing algorithm, also in `jwk.alg` (where JWK types it as optional). */
  readonly alg: 'RS256' | 'ES256';
  readonly privateKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
  readonly jwk: JWK;
}

/**
 * A local OAuth2 / OIDC identity provider for tests: a JWKS endpoint on 127.0.0.1 whose key
 * set a test can rotate or take down, and a signer for tokens. One helper, so the
 * authenticator's unit tests and the executor's end-to-end tests mint tokens the same way.
 */
export class TestIdentityProvider {
  /** The keys the JWKS endpoint serves now. */
  published: JWK[] = [];
  /** How many times the JWKS was fetched. */
  fetches = 0;
  /** While true, JWKS requests are cut (an unreachable provider). */
  down = false;
  jwksUrl = '';
  private server: Server | undefined;

  constructor(
    readonly issuer = 'https://idp.test',
    readonly audience = 'a2a://agent',
  ) {}

  /** Starts the JWKS endpoint. */
  async start(): Promise<this> {
    const server = createServer((_, res) => {
      this.fetches++;
      if (this.down) return void res.socket?.destroy();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ keys: this.published }));
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.jwksUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/jwks.json`;
    return this;
  }

  /** A new key pair (not published until added to {@link published}). */
  async newKey(kid: string, alg: 'RS256' | 'ES256' = 'RS256'): Promise<TestSigningKey> {
    const { publicKey, privateKey } = await generateKeyPair(alg);
    return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
  }

  /**
   * A token signed with `key`: this provider's issuer and audience, `sub` alice and a 5 minute
   * expiry unless `claims` / `options` say otherwise.
   */
  sign(
    key: TestSigningKey,
    claims: Record<string, unknown> = {},
    options: { expiresAt?: number | string; issuer?: string; audience?: string } = {},
  ): Promise<string> {
    return new SignJWT({ sub: 'alice', ...claims })
      .setProtectedHeader({ alg: key.alg, kid: key.kid })
      .setIssuer(options.issuer ?? this.issuer)
      .setAudience(options.audience ?? this.audience)
      .setIssuedAt()
      .setExpirationTime(options.expiresAt ?? '5m')
      .sign(key.privateKey);
  }

  /** Stops the JWKS endpoint. */
  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
