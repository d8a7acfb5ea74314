import { requestLogger } from './call-logger.js';
import type { Logger } from './logger.js';
import type { ProtocolVersion } from './protocol-version.js';

/** The bindings the core knows by name (spec identifiers, plus our WebSocket binding URI). */
export type BindingName = 'JSONRPC' | 'HTTP+JSON' | 'GRPC' | 'WEBSOCKET' | 'SESSION' | 'IN-PROCESS';

/**
 * What a binding tells the core about one call, in transport-neutral terms. Bindings build
 * it from HTTP headers, gRPC metadata or WebSocket upgrade data; the core never sees the
 * socket.
 */
export interface CallContext {
  readonly binding: BindingName;
  /** Case-insensitive lookup of a service parameter / header (`a2a-version`, `authorization`, ...). */
  header(name: string): string | undefined;
  /**
   * The protocol generation the binding decoded this call with: '0.3' when a v0.3 codec
   * translated it, else 1.0. The core checks it against the `A2A-Version` the call names.
   */
  readonly wireVersion?: ProtocolVersion;
  /** Tenant from the binding's path (REST `/{tenant}/...`); wins over the request field. */
  readonly pathTenant?: string;
  /** Aborts when the client goes away or its deadline passes. */
  readonly signal?: AbortSignal;
  /**
   * The client's network address as the binding's socket saw it (an IP, no port), for
   * per-address rate limits. Undefined when the binding has none (in-process calls).
   */
  readonly remoteAddress?: string;
  /**
   * The TLS client certificate the listener verified against its CA (mutual TLS), for
   * authenticators that take the certificate as the identity. Undefined without mTLS.
   */
  readonly clientCertificate?: ClientCertificate;
  /**
   * Set by the core: the extensions activated for this call, which the binding echoes in its
   * `A2A-Extensions` response header / metadata.
   */
  activatedExtensions?: readonly string[];
  /**
   * The logger of this call ({@link requestLogger}: binding and request id), narrowed by the
   * core to the operation (trace id, task id). Lines about the call go here, so they carry
   * those fields on every binding. Absent: the core logs to its own logger.
   */
  logger?: Logger;
}

/** A verified TLS client certificate, in transport-neutral terms. */
export interface ClientCertificate {
  /** The subject's common name (CN), when it has one. */
  readonly commonName?: string;
  /** The subject as one string (`CN=svc-a,O=Example`). */
  readonly subject: string;
  /** SHA-256 fingerprint of the certificate (hex pairs, colon-separated), to pin one exact certificate. */
  readonly fingerprint256?: string;
}

/**
 * A {@link ClientCertificate} from the shape Node's `tls.PeerCertificate` has (structurally,
 * so the core imports nothing of `node:tls`): the one place the HTTP and gRPC listeners turn
 * a verified peer certificate into what authenticators read.
 */
export function clientCertificateOf(
  cert: { readonly subject?: Readonly<Record<string, string | string[] | undefined>>; readonly fingerprint256?: string } | undefined,
): ClientCertificate | undefined {
  if (!cert?.subject) return undefined;
  const entries = Object.entries(cert.subject).filter(([, v]) => v !== undefined) as Array<[string, string | string[]]>;
  if (entries.length === 0) return undefined;
  const subject = entries.map(([k, v]) => `${k}=${Array.isArray(v) ? v.join('+') : v}`).join(',');
  const cn = cert.subject.CN;
  return { subject, commonName: cn === undefined ? undefined : Array.isArray(cn) ? cn[0] : cn, fingerprint256: cert.fingerprint256 };
}

/**
 * Builds a CallContext over a plain header record (keys compared case-insensitively). With
 * `logger` (the binding's), the context's logger is that logger's {@link requestLogger}.
 */
export function callContext(
  binding: BindingName,
  headers: Readonly<Record<string, string | string[] | undefined>>,
  extra: {
    pathTenant?: string;
    signal?: AbortSignal;
    wireVersion?: ProtocolVersion;
    remoteAddress?: string;
    clientCertificate?: ClientCertificate;
    logger?: Logger;
  } = {},
): CallContext {
  const lower = new Map<string, string>();
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined) continue;
    lower.set(k.toLowerCase(), Array.isArray(v) ? v.join(',') : v);
  }
  const { logger, ...rest } = extra;
  const header = (name: string) => lower.get(name.toLowerCase());
  const callLogger = logger && requestLogger(logger, binding, header);
  return { binding, header, ...rest, ...(callLogger && { logger: callLogger }) };
}
