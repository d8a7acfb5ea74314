import { createServer, type ServerResponse, type Server } from 'node:http';
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
 * Ways the JWKS endpoint can misbehave ({@link TestIdentityProvider.misbehave}):
 * - `stall`: status 200 and the start of the body, then nothing (the connection stays open);
 * - `trickle`: status 200, then one space every {@link TestIdentityProvider.trickleMs}, forever;
 * - `huge`: a valid key set padded to {@link TestIdentityProvider.hugeBytes}, chunked (no length);
 *   `hugeDeclared` the same with its `Content-Length`;
 * - `error500`, `notJson` (an HTML page), `wrongShape` (`{"keys":"none"}`), `redirect` (302 to a
 *   path that serves the keys).
 */
export type JwksMisbehaviour = 'stall' | 'trickle' | 'huge' | 'hugeDeclared' | 'error500' | 'notJson' | 'wrongShape' | 'redirect';

/**
 * A local OAuth2 / OIDC identity provider for tests: a JWKS endpoint on 127.0.0.1 whose key
 * set a test can rotate, take down or make misbehave, and a signer for tokens. One helper, so
 * the authenticator's unit tests and the executor's end-to-end tests mint tokens the same way.
 */
export class TestIdentityProvider {
  /** The keys the JWKS endpoint serves now. */
  published: JWK[] = [];
  /** How many times the JWKS was fetched. */
  fetches = 0;
  /** While true, JWKS requests are cut (an unreachable provider). */
  down = false;
  /** While set, JWKS requests get this broken answer instead of the keys. */
  misbehave: JwksMisbehaviour | undefined;
  /** Pause between the bytes of a `trickle`. */
  trickleMs = 50;
  /** Size of a `huge` key set. */
  hugeBytes = 8 * 1024 * 1024;
  jwksUrl = '';
  private server: Server | undefined;

  constructor(
    readonly issuer = 'https://idp.test',
    readonly audience = 'a2a://agent',
  ) {}

  /** Starts the JWKS endpoint. */
  async start(): Promise<this> {
    const server = createServer((req, res) => {
      if (req.url === '/moved/jwks.json') return void this.serveKeys(res);
      this.fetches++;
      if (this.down) return void res.socket?.destroy();
      if (this.misbehave) return void this.misbehaveOn(res, this.misbehave);
      this.serveKeys(res);
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    this.jwksUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/jwks.json`;
    return this;
  }

  private serveKeys(res: ServerResponse): void {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ keys: this.published }));
  }

  private misbehaveOn(res: ServerResponse, how: JwksMisbehaviour): void {
    const json = { 'content-type': 'application/json' };
    switch (how) {
      case 'stall':
        res.writeHead(200, json);
        return void res.write('{"keys":[');
      case 'trickle': {
        res.writeHead(200, json);
        const timer = setInterval(() => res.write(' '), this.trickleMs);
        return void res.on('close', () => clearInterval(timer));
      }
      case 'huge':
      case 'hugeDeclared': {
        const head = `{"keys":${JSON.stringify(this.published)},"padding":"`;
        let left = Math.max(0, this.hugeBytes - head.length - 2);
        res.writeHead(200, how === 'huge' ? json : { ...json, 'content-length': String(head.length + left + 2) });
        res.write(head);
        const chunk = 'x'.repeat(64 * 1024);
        const pump = (): void => {
          while (left > 0) {
            const part = left >= chunk.length ? chunk : chunk.slice(0, left);
            left -= part.length;
            if (!res.write(part)) return void res.once('drain', pump);
          }
          res.end('"}');
        };
        res.on('close', () => {
          left = 0;
        });
        pump();
        return;
      }
      case 'error500':
        res.writeHead(500, json);
        return void res.end('{"error":"internal"}');
      case 'notJson':
        res.writeHead(200, { 'content-type': 'text/html' });
        return void res.end('<html><body>Sign in</body></html>');
      case 'wrongShape':
        res.writeHead(200, json);
        return void res.end('{"keys":"none"}');
      case 'redirect':
        res.writeHead(302, { location: '/moved/jwks.json' });
        return void res.end();
    }
  }

  /** A new key pair (not published until added to {@link published}). */
  async newKey(kid: string, alg: 'RS256' | 'ES256' = 'RS256'): Promise<TestSigningKey> {
    const { publicKey, privateKey } = await generateKeyPair(alg);
    return { kid, alg, privateKey, jwk: { ...(await exportJWK(publicKey)), kid, alg, use: 'sig' } };
  }

  /**
   * A token signed with `key`: this provider's issuer and audience, `sub` alice, `iat` now and a
   * 5 minute expiry unless `claims` / `options` say otherwise (`expiresAt: null`: no `exp`;
   * `issuedAt: null`: no `iat`).
   */
  sign(
    key: TestSigningKey,
    claims: Record<string, unknown> = {},
    options: { expiresAt?: number | string | null; issuedAt?: number | null; issuer?: string; audience?: string } = {},
  ): Promise<string> {
    const jwt = new SignJWT({ sub: 'alice', ...claims })
      .setProtectedHeader({ alg: key.alg, kid: key.kid })
      .setIssuer(options.issuer ?? this.issuer)
      .setAudience(options.audience ?? this.audience);
    if (options.issuedAt !== null) jwt.setIssuedAt(options.issuedAt);
    if (options.expiresAt !== null) jwt.setExpirationTime(options.expiresAt ?? '5m');
    return jwt.sign(key.privateKey);
  }

  /** Stops the JWKS endpoint (cutting stalled and trickling answers). */
  close(): Promise<void> {
    const server = this.server;
    if (!server) return Promise.resolve();
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    server.closeAllConnections();
    return closed;
  }
}
