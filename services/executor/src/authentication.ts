import { ApiKeyAuthenticator, ClientCertificateAuthenticator, type Authenticator, withPrincipalAliases } from '@a2a-polyglot/core';
import { anyAuthenticator, JwtAuthenticator } from '@a2a-polyglot/auth-jwt';
import type { SecurityScheme } from '@a2a-polyglot/model';
import type { AuthConfig } from './config.js';

/** What the configured authentication needs: the authenticator, and the schemes the card declares for it. */
export interface Authentication {
  /** Undefined when neither API keys nor JWTs are configured (authentication off). */
  readonly authenticator: Authenticator | undefined;
  /** JWT scheme for the card, by name (API-key schemes are added by the card builder). */
  readonly jwtScheme: SecurityScheme | undefined;
}

/**
 * Whether {@link authenticationFor} builds an authenticator for `auth`: the same three
 * conditions, without building one (no JWKS client), for the startup checks.
 */
export function authenticationConfigured(auth: AuthConfig, clientCertIdentity = false): boolean {
  return Boolean(auth.jwksUrl && auth.jwtIssuer && auth.jwtAudience) || Object.keys(auth.apiKeys).length > 0 || clientCertIdentity;
}

/** Name of the card's security scheme for bearer JWTs. */
export const JWT_SCHEME = 'oauth2Bearer';

/**
 * Builds the executor's authentication from `auth`: API keys, bearer JWTs verified against
 * the provider's JWKS, a verified TLS client certificate (`clientCertIdentity`, mutual TLS),
 * or several (a caller may use any), then `principalAliases` (the one way two of them share
 * tasks). One place, so the single agent and every agent of a multi-agent config
 * authenticate alike.
 */
export function authenticationFor(auth: AuthConfig, clientCertIdentity = false): Authentication {
  const list: Authenticator[] = [];
  let jwtScheme: SecurityScheme | undefined;
  if (auth.jwksUrl && auth.jwtIssuer && auth.jwtAudience) {
    const jwt = new JwtAuthenticator({
      jwksUrl: auth.jwksUrl,
      issuer: auth.jwtIssuer,
      audience: auth.jwtAudience,
      clockToleranceSec: auth.jwtClockToleranceSec,
      requireExpiry: auth.jwtRequireExp,
      maxLifetimeSec: auth.jwtMaxLifetimeSec,
      jwksTimeoutMs: auth.jwksTimeoutMs,
      jwksMaxBytes: auth.jwksMaxBytes,
      openIdConnectUrl: auth.openIdConnectUrl,
      requiredScopes: auth.jwtRequiredScopes,
    });
    list.push(jwt);
    jwtScheme = jwt.securityScheme();
  }
  if (Object.keys(auth.apiKeys).length > 0) list.push(new ApiKeyAuthenticator({ keys: auth.apiKeys, header: auth.header }));
  if (clientCertIdentity) list.push(new ClientCertificateAuthenticator());
  return { authenticator: list.length > 0 ? withPrincipalAliases(anyAuthenticator(...list), auth.principalAliases) : undefined, jwtScheme };
}
