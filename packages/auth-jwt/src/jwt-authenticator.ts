import { A2AError, A2AErrorCode, type Authenticator, type CallContext, type Principal } from '@a2a-polyglot/core';
import type { SecurityScheme } from '@a2a-polyglot/model';
import { createRemoteJWKSet, errors as joseErrors, type JWTPayload, jwtVerify } from 'jose';

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
  /** Claim naming the caller, which scopes task ownership. Default `sub`. */
  readonly principalClaim?: string;
  /** Scopes every token must carry (space-separated `scope` claim, or `scp` array). Default none. */
  readonly requiredScopes?: readonly string[];
  /** How long fetched keys are trusted before a refetch. Default 10 min. */
  readonly jwksCacheMaxAgeMs?: number;
  /** Least time between two JWKS fetches (an unknown `kid` triggers one: key rotation). Default 30 s. */
  readonly jwksCooldownMs?: number;
  /** How long a JWKS fetch may take. Default 5 s. */
  readonly jwksTimeoutMs?: number;
  /** OIDC discovery URL to declare in the card (`openIdConnect` scheme); else an HTTP bearer (JWT) scheme. */
  readonly openIdConnectUrl?: string;
}

const DEFAULT_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/**
 * OAuth2 / OpenID Connect bearer tokens: `Authorization: Bearer <JWT>`, verified against the
 * provider's JWKS with jose (signature, issuer, audience, expiry with clock skew, optional
 * scopes). Keys are cached and refetched when a token names a key id not seen yet, so the
 * provider can rotate keys without a restart. Works on every binding: credentials reach the
 * core as `CallContext.header('authorization')` from HTTP headers, gRPC metadata and the
 * WebSocket handshake alike.
 *
 * A bad token is Unauthenticated (401 / UNAUTHENTICATED) with a reason a client can act on
 * (expired, wrong audience…) and nothing more; a provider that cannot be reached for keys is
 * Unavailable (503), so clients retry instead of discarding a valid token.
 */
export class JwtAuthenticator implements Authenticator {
  private readonly keys: ReturnType<typeof createRemoteJWKSet>;
  private readonly principalClaim: string;

  constructor(private readonly options: JwtAuthenticatorOptions) {
    this.keys = createRemoteJWKSet(new URL(String(options.jwksUrl)), {
      cacheMaxAge: options.jwksCacheMaxAgeMs ?? 600_000,
      cooldownDuration: options.jwksCooldownMs ?? 30_000,
      timeoutDuration: options.jwksTimeoutMs ?? 5_000,
    });
    this.principalClaim = options.principalClaim ?? 'sub';
  }

  async authenticate(ctx: CallContext): Promise<Principal> {
    const token = bearerToken(ctx.header('authorization'));
    if (!token) throw new A2AError(A2AErrorCode.Unauthenticated, 'Missing credentials: send Authorization: Bearer <token>');
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, this.keys, {
        issuer: toList(this.options.issuer),
        audience: toList(this.options.audience),
        clockTolerance: this.options.clockToleranceSec ?? 30,
        algorithms: [...(this.options.algorithms ?? DEFAULT_ALGORITHMS)],
      }));
    } catch (error) {
      throw rejection(error);
    }
    const id = payload[this.principalClaim];
    if (typeof id !== 'string' || id === '') throw new A2AError(A2AErrorCode.Unauthenticated, `Invalid token: no ${this.principalClaim} claim`);
    const missing = (this.options.requiredScopes ?? []).filter((s) => !scopesOf(payload).has(s));
    if (missing.length > 0) throw new A2AError(A2AErrorCode.PermissionDenied, `The token lacks the scope ${missing.join(', ')}`);
    return { id, attributes: { claims: payload } };
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
  if (error instanceof joseErrors.JWKSTimeout || !(error instanceof joseErrors.JOSEError)) {
    return new A2AError(A2AErrorCode.Unavailable, 'Cannot verify credentials now: the identity provider keys are unreachable', { cause: error });
  }
  if (error instanceof joseErrors.JWTExpired) return new A2AError(A2AErrorCode.Unauthenticated, 'Invalid token: expired');
  if (error instanceof joseErrors.JWTClaimValidationFailed)
    return new A2AError(A2AErrorCode.Unauthenticated, `Invalid token: ${error.claim} claim check failed`);
  if (error instanceof joseErrors.JWKSNoMatchingKey) return new A2AError(A2AErrorCode.Unauthenticated, 'Invalid token: signed with an unknown key');
  if (error instanceof joseErrors.JWSSignatureVerificationFailed) return new A2AError(A2AErrorCode.Unauthenticated, 'Invalid token: bad signature');
  if (error instanceof joseErrors.JOSEAlgNotAllowed) return new A2AError(A2AErrorCode.Unauthenticated, 'Invalid token: algorithm not allowed');
  return new A2AError(A2AErrorCode.Unauthenticated, 'Invalid token');
}
