/**
 * @a2a-polyglot/auth-jwt — real identities for A2A servers: OAuth2 / OpenID Connect bearer
 * JWTs verified against the provider's JWKS (jose), plugged into the core's one
 * `Authenticator` seam so JSON-RPC, REST, gRPC and WebSocket all check them the same way.
 * A package of its own so the core, and browser bundles of the client, stay free of jose.
 */
export { bearerToken, JWT_DEFAULTS, JwtAuthenticator, type JwtAuthenticatorOptions } from './jwt-authenticator.js';
export { JwksUnavailableError } from './fetch-jwks.js';
export { anyAuthenticator } from './any-authenticator.js';
