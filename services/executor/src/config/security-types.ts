/**
 * The security sections of the configuration: who may call (`auth`), how often
 * (`rateLimit`), the listeners' TLS (`tls`), which browser pages may call (`cors`) and the key
 * the cards are signed with (`cardSigning`); beside them what the listeners speak (`protocol`).
 * Types only, no code.
 */
import type { CardSigningAlgorithm } from '@a2a-polyglot/card-signing';

/** Authentication: static API keys, bearer JWTs from an identity provider, or both (either is accepted). */
export interface AuthConfig {
  /** API keys mapped to the name each authenticates as (principal id `key:<name>`). */
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
  /** Refuse JWTs without `exp`. Default true. */
  readonly jwtRequireExp: boolean;
  /** Longest JWT lifetime accepted (`exp` after `iat`, or after now), seconds. Default 86400. */
  readonly jwtMaxLifetimeSec: number;
  /** Deadline of one whole JWKS fetch (connect, headers, body), ms. Default 5000. */
  readonly jwksTimeoutMs: number;
  /** Largest JWKS body read, bytes. Default 1 MiB. */
  readonly jwksMaxBytes: number;
  /** OIDC discovery URL to declare in the card (else the card declares an HTTP bearer JWT scheme). */
  readonly openIdConnectUrl?: string;
  /** Principal ids mapped to a shared identity (only this makes a JWT, a key and a certificate one owner). Default none. */
  readonly principalAliases: Readonly<Record<string, string>>;
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
  /**
   * Most keys each budget counts in memory (the in-memory budgets, and the insurance copies of
   * the Redis ones); past it the least recently counted key starts a fresh window. Bounds the
   * memory a client rotating addresses can make the limiter take.
   */
  readonly maxKeys: number;
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

/** Browser pages of other origins allowed to call (README "Browsers"); the service's own pages always may. */
export interface CorsConfig {
  /** Origins (`https://app.example.com`) whose pages may call; `*` for any. Default none. */
  readonly origins: readonly string[];
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

/** The experimental A2A 1.1 draft (spec branch `dev-1.1`): off unless asked for. */
export interface ProtocolConfig {
  /**
   * Serve A2A 1.1 to calls naming `A2A-Version: 1.1` (task generations on every task and
   * event, long-polling GetTask, conditional follow-ups) and list 1.1 interfaces in the card.
   * Off: such calls are refused with VersionNotSupported. 1.0 and 0.3 calls are answered the
   * same either way.
   */
  readonly experimental11: boolean;
  /** Longest a 1.1 GetTask long poll is held before the task is answered as it is. */
  readonly longPollMaxMs: number;
}
