/**
 * The identity provider's key server misbehaving, over real sockets (a local node:http JWKS
 * endpoint): stalling after the status line, trickling bytes, sending a huge key set, a 500,
 * HTML, a wrong shape or a redirect. Every one must end in Unavailable (503) within the
 * fetch deadline, with one fetch per backoff window whatever the number of requests, and a
 * valid token must be accepted again once the provider recovers.
 */
import { A2AErrorCode, callContext } from '@a2a-polyglot/core';
import { eventually, type JwksMisbehaviour, TestIdentityProvider, type TestSigningKey } from '@a2a-polyglot/testing';
import { JwtAuthenticator, type JwtAuthenticatorOptions } from '../src/index.js';

const bearer = (t: string) => callContext('JSONRPC', { authorization: `Bearer ${t}` });

/** Settles like `promise`, or rejects once `ms` have passed without an answer (the request hung). */
function answeredWithin<T>(ms: number, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms: the request hung`)), ms);
  });
  return Promise.race([promise, hung]).finally(() => clearTimeout(timer));
}

describe('JwtAuthenticator against a misbehaving JWKS endpoint', () => {
  let idp: TestIdentityProvider;
  let key: TestSigningKey;
  const make = (extra: Partial<JwtAuthenticatorOptions> = {}) =>
    new JwtAuthenticator({ jwksUrl: idp.jwksUrl, issuer: idp.issuer, audience: idp.audience, jwksTimeoutMs: 300, jwksBackoffMinMs: 50, ...extra });

  beforeAll(async () => {
    idp = await new TestIdentityProvider().start();
    key = await idp.newKey('k1');
    idp.published = [key.jwk];
  });
  beforeEach(() => {
    idp.misbehave = undefined;
    idp.fetches = 0;
  });
  afterAll(() => idp.close());

  it.each(['stall', 'trickle'] as const)(
    'a %s answer ends in Unavailable at the fetch deadline, and a valid token works once the provider recovers',
    async (how) => {
      idp.misbehave = how;
      const authenticator = make();
      const token = await idp.sign(key);
      const startedAt = Date.now();
      await expect(answeredWithin(3000, authenticator.authenticate(bearer(token)))).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(250);
      idp.misbehave = undefined;
      await expect(eventually(() => answeredWithin(3000, authenticator.authenticate(bearer(token))), { timeoutMs: 5000 })).resolves.toMatchObject({
        id: `jwt:${idp.issuer}#alice`,
      });
    },
  );

  it.each(['huge', 'hugeDeclared'] as const)('refuses a key set over the byte cap (%s) as Unavailable', async (how) => {
    idp.misbehave = how;
    idp.hugeBytes = 2 * 1024 * 1024;
    const token = await idp.sign(key);
    await expect(answeredWithin(5000, make({ jwksMaxBytes: 64 * 1024, jwksTimeoutMs: 4000 }).authenticate(bearer(token)))).rejects.toMatchObject({
      code: A2AErrorCode.Unavailable,
      cause: { message: 'the answer is larger than 65536 bytes' },
    });
    // The same key set is accepted under a cap it fits in: the refusal was the size, nothing else.
    await expect(make({ jwksMaxBytes: 4 * 1024 * 1024, jwksTimeoutMs: 5000 }).authenticate(bearer(token))).resolves.toMatchObject({
      id: `jwt:${idp.issuer}#alice`,
    });
  });

  it.each([
    ['error500', 'answered HTTP 500'],
    ['notJson', 'the answer is not JSON'],
    ['wrongShape', 'the answer is not a JWK Set'],
    ['redirect', 'answered HTTP 302'],
  ] as Array<[JwksMisbehaviour, string]>)(
    'a JWKS answering %s is Unavailable (503), not Invalid token, and is fetched once per backoff, not once per request',
    async (how, why) => {
      idp.misbehave = how;
      const authenticator = make({ jwksBackoffMinMs: 60_000, jwksTimeoutMs: 4000 });
      const token = await idp.sign(key);
      const answers = await Promise.allSettled(Array.from({ length: 200 }, () => authenticator.authenticate(bearer(token))));
      for (let i = 0; i < 800; i++) answers.push(...(await Promise.allSettled([authenticator.authenticate(bearer(token))])));
      const outcome = (a: PromiseSettledResult<unknown>) =>
        a.status === 'rejected' ? `${(a.reason as { code?: unknown }).code}: ${(a.reason as { cause?: Error }).cause?.message}` : 'accepted';
      expect(new Set(answers.map(outcome))).toEqual(new Set([`${A2AErrorCode.Unavailable}: ${why}`]));
      expect(idp.fetches).toBe(1);
    },
  );

  it('backs off after a failed fetch, and fetches again once the backoff has passed', async () => {
    idp.misbehave = 'error500';
    const authenticator = make({ jwksBackoffMinMs: 1000, jwksBackoffMaxMs: 2000, jwksTimeoutMs: 4000 });
    const token = await idp.sign(key);
    const attempt = () => authenticator.authenticate(bearer(token)).catch((e: { code?: unknown }) => e.code);
    expect(await attempt()).toBe(A2AErrorCode.Unavailable);
    expect(await attempt()).toBe(A2AErrorCode.Unavailable);
    expect(idp.fetches).toBe(1); // within the first backoff
    await eventually(async () => {
      await attempt();
      if (idp.fetches < 2) throw new Error('not fetched again yet');
    });
    idp.misbehave = undefined;
    await expect(eventually(() => authenticator.authenticate(bearer(token)))).resolves.toMatchObject({ id: `jwt:${idp.issuer}#alice` });
  });

  it('does not use keys past their cache age when they cannot be fetched again', async () => {
    const authenticator = make({ jwksCacheMaxAgeMs: 200 });
    const token = await idp.sign(key);
    await expect(authenticator.authenticate(bearer(token))).resolves.toMatchObject({ id: `jwt:${idp.issuer}#alice` });
    idp.misbehave = 'error500';
    await expect(
      eventually(() =>
        authenticator.authenticate(bearer(token)).then(
          (p) => Promise.reject(new Error(`still accepted as ${p.id}`)),
          (e: unknown) => e,
        ),
      ),
    ).resolves.toMatchObject({ code: A2AErrorCode.Unavailable, cause: { message: 'answered HTTP 500' } });
  });
});
