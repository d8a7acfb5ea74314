/**
 * The security sections of the configuration: who may call (`auth`), how often
 * (`rateLimit`), the listeners' TLS (`tls`) and the key the cards are signed with
 * (`cardSigning`). Types only, no code.
 */
import type { CardSigningAlgorithm } from '@a2a-polyglot/card-signing';

/** Authentication: static API keys, bearer JWTs from an identity provider, or both (either is accepted). */
export interface AuthConfig {
  /** API keys mapped to the principal each authenticates as. */
  readonly apiKeys: Readonly<Record<string, string>>;
  /** Header carrying a raw API key (`Authorization: Bearer <key>` works too). */
  readonly header: string;
  /** The identity provider's JWKS URL: set it (with `jwtIssuer` and `jwtAudience`) to accept bearer JWTs. */
  readonly jwksUrl?: string;
  /** Accepted `iss` of JWTs. */
  readonly jwtIssuer?: string;
  /** Accepted `aud` of JWTs (this agent at the provider). */
  readonly jwtAudience?: string;
  /** Clock skew tolerated on `exp` / `nbf`, seconds. Default 30. */
  readonly jwtClockToleranceSec?: number;
  /** OIDC discovery URL to declare in the card (else the card declares an HTTP bearer JWT scheme). */
  readonly openIdConnectUrl?: string;
}

/**
 * Rate limits (README "Rate limits"): requests per window, per client address (IPv4, or IPv6
 * /64) and per authenticated identity. Off by default (0): behind a proxy every client shares
 * the proxy's address, so a default address limit would throttle all of them together.
 */
export interface RateLimitConfig {
  /** Requests one client address may make per `addressWindowSec`; 0 turns the address limit off. */
  readonly addressPoints: number;
  readonly addressWindowSec: number;
  /** Requests one identity may make per `identityWindowSec`; 0 turns the identity limit off. */
  readonly identityPoints: number;
  readonly identityWindowSec: number;
}

/**
 * TLS on the listeners (README "TLS"): with `certFile` and `keyFile`, the HTTP listener serves
 * HTTPS (and WSS) and the gRPC listener TLS; with `clientCaFile` too, gRPC requires a client
 * certificate signed by that CA (mutual TLS).
 */
export interface TlsConfig {
  /** Server certificate chain (PEM file). */
  readonly certFile?: string;
  /** Server private key (PEM file). */
  readonly keyFile?: string;
  /** CA bundle (PEM file) gRPC client certificates must chain to: set ⇒ gRPC requires mutual TLS. */
  readonly clientCaFile?: string;
  /** A verified client certificate authenticates as its common name (beside any API keys / JWTs). Default false. */
  readonly clientCertIdentity: boolean;
}

/**
 * Agent card signatures (README "Signed agent cards"): with `keyFile`, the public card (every
 * generation and host variant) and the extended card carry a JWS over their RFC 8785
 * canonical JSON, as spec §8 and the official SDKs have it. Off by default.
 */
export interface CardSigningConfig {
  /** The private key (a PEM file, or a JWK in a JSON file). Set ⇒ cards are signed. */
  readonly keyFile?: string;
  /** `kid` of the signatures. Default: the JWK's own `kid` (a PEM key needs this). */
  readonly kid?: string;
  /** Default: what the key signs (RSA RS256, P-256 ES256, Ed25519 EdDSA). */
  readonly alg?: CardSigningAlgorithm;
  /** `jku` of the signatures: where the JWKS with the public key is published. */
  readonly jku?: string;
}
