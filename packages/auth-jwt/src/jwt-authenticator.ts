import { A2AError, A2AErrorCode, type Authenticator, type CallContext, type Principal, principalId } from '@a2a-polyglot/core';
import type { SecurityScheme } from '@a2a-polyglot/model';
import { errors as joseErrors, type JWTPayload, jwtVerify } from 'jose';
import { JwksUnavailableError } from './fetch-jwks.js';
import { RemoteKeySet } from './remote-key-set.js';

/** Settings of {@link JwtAuthenticator}. */
export interface JwtAuthenticatorOptions {
  /** The identity provider's JWKS endpoint (OIDC `jwks_uri`). */
  readonly jwksUrl: string | URL;
  /** Accepted `iss` value(s). Required: a token from another issuer is never accepted. */
  readonly issuer: string | readonly string[];
  /** Accepted `aud` value(s): this agent's identifier at the provider. */
  readonly audience: string | readonly string[];
  /** Leeway for `exp` / `nbf` / `iat` between our clock and the provider's. Default 30 s. */
  readonly clockToleranceSec?: number;
  /** Signature algorithms accepted. Default the asymmetric ones providers use (RS*, PS*, ES*, EdDSA); never `none` or HMAC. */
  readonly algorithms?: readonly string[];
  /** Claim naming the caller within its issuer: the principal id is `jwt:<iss>#<claim value>`. Default `sub`. */
  readonly principalClaim?: string;
  /** Scopes every token must carry (space-separated `scope` claim, or `scp` array). Default none. */
  readonly requiredScopes?: readonly string[];
  /** How long fetched keys are trusted before a refetch. Default 10 min. */
  readonly jwksCacheMaxAgeMs?: number;
  /** Least time between two JWKS fetches (an unknown `kid` triggers one: key rotation). Default 30 s. */
  readonly jwksCooldownMs?: number;
  /** Deadline of one whole JWKS fetch: connecting, headers and every byte of the body. Default 5 s. */
  readonly jwksTimeoutMs?: number;
  /** Largest JWKS body read; a larger one is a failed fetch. Default 1 MiB. */
  readonly jwksMaxBytes?: number;
  /** After a failed JWKS fetch, no other for this long (doubling with each failure in a row, up to `jwksBackoffMaxMs`). Default 1 s. */
  readonly jwksBackoffMinMs?: number;
  /** Longest wait between JWKS fetches while the provider keeps failing. Default 60 s. */
  readonly jwksBackoffMaxMs?: number;
  /** Refuse a token without `exp` (one that would never expire). Default true. */
  readonly requireExpiry?: boolean;
  /** Longest lifetime accepted: `exp` at most this many seconds after `iat` (or after now, without `iat`). Default 24 h. */
  readonly maxLifetimeSec?: number;
  /** OIDC discovery URL to declare in the card (`openIdConnect` scheme); else an HTTP bearer (JWT) scheme. */
  readonly openIdConnectUrl?: string;
}

/** Defaults of {@link JwtAuthenticatorOptions}, exported so configuration layers document the same numbers. */
export const JWT_DEFAULTS = {
  clockToleranceSec: 30,
  jwksCacheMaxAgeMs: 600_000,
  jwksCooldownMs: 30_000,
  jwksTimeoutMs: 5_000,
  jwksMaxBytes: 1024 * 1024,
  jwksBackoffMinMs: 1_000,
  jwksBackoffMaxMs: 60_000,
  maxLifetimeSec: 24 * 60 * 60,
} as const;

const DEFAULT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/**
 * OAuth2 / OpenID Connect bearer tokens: `Authorization: Bearer <JWT>`, verified against the
 * provider's JWKS with jose (signature, issuer, audience, expiry with clock skew, a required
 * `exp` within a capped lifetime, optional scopes). The caller is `jwt:<iss>#<sub>`: the same
 * `sub` from another issuer, or an API key of that name, is someone else. Keys are cached and
 * refetched when a token names a key id not seen yet, so the provider can rotate keys without
 * a restart ({@link RemoteKeySet}: bounded fetches, one at a time, backing off on failure).
 * Works on every binding: credentials reach the core as `CallContext.header('authorization')`
 * from HTTP headers, gRPC metadata and the WebSocket handshake alike.
 *
 * A bad token is Unauthenticated (401 / UNAUTHENTICATED) with a reason a client can act on
 * (expired, wrong audience…) and nothing more; while the provider's keys cannot be had
 * (unreachable, slow, too large, not a key set) it is Unavailable (503), so clients retry
 * instead of discarding a valid token.
 */
export class JwtAuthenticator implements Authenticator {
  private readonly keys: RemoteKeySet;
  private readonly principalClaim: string;
  private readonly clockToleranceSec: number;
  private readonly maxLifetimeSec: number;

  constructor(private readonly options: JwtAuthenticatorOptions) {
    this.keys = new RemoteKeySet(new URL(String(options.jwksUrl)), {
      cacheMaxAgeMs: options.jwksCacheMaxAgeMs ?? JWT_DEFAULTS.jwksCacheMaxAgeMs,
      cooldownMs: options.jwksCooldownMs ?? JWT_DEFAULTS.jwksCooldownMs,
      timeoutMs: options.jwksTimeoutMs ?? JWT_DEFAULTS.jwksTimeoutMs,
      maxBytes: options.jwksMaxBytes ?? JWT_DEFAULTS.jwksMaxBytes,
      backoffMinMs: options.jwksBackoffMinMs ?? JWT_DEFAULTS.jwksBackoffMinMs,
      backoffMaxMs: options.jwksBackoffMaxMs ?? JWT_DEFAULTS.jwksBackoffMaxMs,
    });
    this.principalClaim = options.principalClaim ?? 'sub';
    this.clockToleranceSec = options.clockToleranceSec ?? JWT_DEFAULTS.clockToleranceSec;
    this.maxLifetimeSec = options.maxLifetimeSec ?? JWT_DEFAULTS.maxLifetimeSec;
  }

  async authenticate(ctx: CallContext): Promise<Principal> {
    const token = bearerToken(ctx.header('authorization'));
    if (!token) throw new A2AError(A2AErrorCode.Unauthenticated, 'Missing credentials: send Authorization: Bearer <token>');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keys.getKey, {
        issuer: toList(this.options.issuer),
        audience: toList(this.options.audience),
        clockTolerance: this.clockToleranceSec,
        algorithms: [...(this.options.algorithms ?? DEFAULT_ALGORITHMS)],
        requiredClaims: this.options.requireExpiry === false ? [] : ['exp'],
      }));
    } catch (error) {
      throw rejection(error);
    }
    this.checkLifetime(payload);
    const name = payload[this.principalClaim];
    if (typeof name !== 'string' || name === '') throw new A2AError(A2AErrorCode.Unauthenticated, `Invalid token: no ${this.principalClaim} claim`);
    const missing = (this.options.requiredScopes ?? []).filter((s) => !scopesOf(payload).has(s));
    if (missing.length > 0) throw new A2AError(A2AErrorCode.PermissionDenied, `The token lacks the scope ${missing.join(', ')}`);
    // jwtVerify checked `iss` is one of the configured issuers, so it is a string here.
    return { id: principalId.jwt(String(payload.iss), name), attributes: { claims: payload } };
  }

  /**
   * A stolen token is usable until it expires: one with `exp` far away (1e300) is as good as
   * one without. Lifetime counts from `iat` when the token has one in the past, else from now.
   */
  private checkLifetime(payload: JWTPayload): void {
    if (payload.exp === undefined) return;
    const now = Math.floor(Date.now() / 1000);
    const start = typeof payload.iat === 'number' ? Math.min(payload.iat, now) : now;
    if (payload.exp - start > this.maxLifetimeSec + this.clockToleranceSec) {
      throw new A2AError(A2AErrorCode.Unauthenticated, `Invalid token: it lives longer than the ${this.maxLifetimeSec} s this agent accepts`);
    }
  }

  /** How the card declares this scheme (`securitySchemes` entry). */
  securityScheme(): SecurityScheme {
    if (this.options.openIdConnectUrl) {
      return {
        scheme: {
          $case: 'openIdConnectSecurityScheme',
          value: { description: 'OpenID Connect bearer token (JWT)', openIdConnectUrl: this.options.openIdConnectUrl },
        },
      };
    }
    return { scheme: { $case: 'httpAuthSecurityScheme', value: { description: 'OAuth2 bearer token (JWT)', scheme: 'Bearer', bearerFormat: 'JWT' } } };
  }
}

/** The token of an `Authorization: Bearer …` header, or undefined. */
export function bearerToken(authorization: string | undefined): string | undefined {
  const token = authorization && /^bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
  return token || undefined;
}

function toList(value: string | readonly string[]): string[] {
  return typeof value === 'string' ? [value] : [...value];
}

function scopesOf(payload: JWTPayload): Set<string> {
  const scope = payload.scope;
  const scp = payload.scp;
  const list = typeof scope === 'string' ? scope.split(' ') : Array.isArray(scp) ? scp.filter((s): s is string => typeof s === 'string') : [];
  return new Set(list.filter(Boolean));
}

/** Maps a jose failure to what the caller is told: why the token was refused, or that keys could not be fetched. */
function rejection(error: unknown): A2AError {
  if (error instanceof JwksUnavailableError || !(error instanceof joseErrors.JOSEError)) {
    return new A2AError(A2AErrorCode.Unavailable, 'Cannot verify credentials now: the identity provider keys cannot be fetched', { cause: error });
  }
  if (error instanceof joseErrors.JWTExpired) return new A2AError(A2AErrorCode.Unauthenticated, 'Invalid token: expired');
  if (error instanceof joseErrors.JWTClaimValidationFailed)
    return new A2AError(
      A2AErrorCode.Unauthenticated,
      error.reason === 'missing' ? `Invalid token: no ${error.claim} claim` : `Invalid token: ${error.claim} claim check failed`,
    );
  if (error instanceof joseErrors.JWKSNoMatchingKey) return new A2AError(A2AErrorCode.Unauthenticated, 'Invalid token: signed with an unknown key');
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return new A2AError(A2AErrorCode.Unauthenticated, 'Invalid token: bad signature');
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return new A2AError(A2AErrorCode.Unauthenticated, 'Invalid token: algorithm not allowed');
  return new A2AError(A2AErrorCode.Unauthenticated, 'Invalid token');
}
