import { A2AError } from './a2a-error.js';
import { A2AErrorCode } from './error-code.js';
import type { CallContext } from './call-context.js';
import { principalId } from './principal-id.js';

/**
 * An authenticated caller. `id` scopes task ownership; the built-in authenticators namespace
 * it by scheme ({@link principalId}: `jwt:<iss>#<sub>`, `key:<name>`, `cert:<issuer>#<subject>`).
 */
export interface Principal {
  readonly id: string;
  readonly attributes?: Readonly<Record<string, unknown>>;
}

/**
 * The one authentication seam. Every binding hands the caller's credentials (HTTP headers,
 * gRPC metadata, WebSocket upgrade headers or subprotocol token) to the core as
 * `CallContext.header`, and the core calls this before any operation except agent-card
 * discovery. Return a principal, or throw `A2AError(Unauthenticated)`.
 */
export interface Authenticator {
  authenticate(ctx: CallContext): Promise<Principal>;
}

/** Settings of {@link ApiKeyAuthenticator}. */
export interface ApiKeyAuthenticatorOptions {
  /** Accepted keys, mapped to the name each one authenticates as (the principal id is `key:<name>`). */
  readonly keys: Readonly<Record<string, string>>;
  /** Header carrying a raw API key (also accepted: `Authorization: Bearer <key>`). Default `x-api-key`. */
  readonly header?: string;
}

/**
 * Static API keys / bearer tokens: enough for service-to-service deployments and tests.
 * Compares in constant time per candidate so response timing does not leak key prefixes.
 */
export class ApiKeyAuthenticator implements Authenticator {
  private readonly header: string;
  constructor(private readonly options: ApiKeyAuthenticatorOptions) {
    this.header = (options.header ?? 'x-api-key').toLowerCase();
  }

  async authenticate(ctx: CallContext): Promise<Principal> {
    const authorization = ctx.header('authorization');
    const bearer = authorization && /^bearer\s+(.+)$/i.exec(authorization)?.[1]?.trim();
    const presented = bearer || ctx.header(this.header);
    if (presented) {
      for (const [key, name] of Object.entries(this.options.keys)) {
        if (constantTimeEqual(presented, key)) return { id: principalId.apiKey(name) };
      }
    }
    throw new A2AError(A2AErrorCode.Unauthenticated, presented ? 'Invalid credentials' : 'Missing credentials');
  }
}

function constantTimeEqual(a: string, b: string): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < Math.max(a.length, b.length); i++) diff |= (a.charCodeAt(i) || 0) ^ (b.charCodeAt(i) || 0);
  return diff === 0;
}

/**
 * Mutual TLS as an identity: a caller whose client certificate the listener verified against
 * its CA authenticates as `cert:<issuer DN>#<subject DN>`, the whole subject of the
 * certificate under the CA that signed it (not the common name alone: a certificate without
 * CN, or with two, must not pass for one whose CN reads the same). For
 * service-to-service gRPC, where the certificate already proves who calls; combine it with
 * other authenticators (`anyAuthenticator`) to accept keys or tokens from other callers.
 * The listener, not this class, verifies the certificate: it only reads what was verified.
 */
export class ClientCertificateAuthenticator implements Authenticator {
  async authenticate(ctx: CallContext): Promise<Principal> {
    const cert = ctx.clientCertificate;
    if (!cert) throw new A2AError(A2AErrorCode.Unauthenticated, 'Missing client certificate');
    return {
      id: principalId.certificate(cert.issuer, cert.subject),
      attributes: {
        certificateSubject: cert.subject,
        certificateIssuer: cert.issuer,
        ...(cert.fingerprint256 ? { certificateFingerprint256: cert.fingerprint256 } : {}),
      },
    };
  }
}
