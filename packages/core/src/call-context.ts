import { lazyChild } from './lazy-logger.js';
import { silentLogger, type Logger } from './logger.js';
import { distinguishedName } from './distinguished-name.js';
import type { ProtocolVersion } from './protocol-version.js';
import { newId } from './util.js';

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
   * True when the binding already spent this call's address point as the request arrived
   * (`RequestHandler.chargeArrival`, before the body was read): the preamble then spends no
   * second one. Set on the first call of that request only (a JSON-RPC batch's later entries
   * spend their own).
   */
  readonly addressCharged?: boolean;
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

/** The generation a call was decoded in: {@link CallContext.wireVersion}, 1.0 when unset. */
export function wireVersionOf(ctx: CallContext): ProtocolVersion {
  return ctx.wireVersion ?? '1.0';
}

/** A verified TLS client certificate, in transport-neutral terms. */
export interface ClientCertificate {
  /** The subject's common name (CN), when it has one (the first, if it has several). For display: the id is the whole subject. */
  readonly commonName?: string;
  /** The subject as one escaped string, attributes in the certificate's order (`C=US,O=Example,CN=svc-a`; see {@link distinguishedName}). */
  readonly subject: string;
  /** The issuer (the CA that signed it) as one string, like `subject`. Empty when the peer certificate did not say. */
  readonly issuer: string;
  /** SHA-256 fingerprint of the certificate (hex pairs, colon-separated), to pin one exact certificate. */
  readonly fingerprint256?: string;
}

type DnAttributes = Readonly<Record<string, string | string[] | undefined>>;

/**
 * A {@link ClientCertificate} from the shape Node's `tls.PeerCertificate` has (structurally,
 * so the core imports nothing of `node:tls`): the one place the HTTP and gRPC listeners turn
 * a verified peer certificate into what authenticators read.
 */
export function clientCertificateOf(
  cert: { readonly subject?: DnAttributes; readonly issuer?: DnAttributes; readonly fingerprint256?: string } | undefined,
): ClientCertificate | undefined {
  if (!cert?.subject) return undefined;
  const subject = distinguishedName(cert.subject);
  if (subject === '') return undefined;
  const cn = cert.subject.CN;
  return {
    subject,
    issuer: cert.issuer ? distinguishedName(cert.issuer) : '',
    commonName: cn === undefined ? undefined : Array.isArray(cn) ? cn[0] : cn,
    fingerprint256: cert.fingerprint256,
  };
}

/** The header a caller or a proxy names its request with; kept as the log lines' `reqId`. */
export const REQUEST_ID_HEADER = 'x-request-id';

/** Longest `X-Request-Id` taken as is; a longer or odd one is replaced (it lands in every line). */
const MAX_REQUEST_ID_LENGTH = 128;
const REQUEST_ID_SHAPE = /^[\w.:/+=@-]+$/;

/**
 * The logger of one incoming call: the binding's logger with the call's `binding` and
 * `reqId` (the caller's `X-Request-Id` when it sent a sane one, else a fresh UUID), so every
 * line about the call can be found together. The bindings build it when they build the
 * call's context; the core adds `operation`, `traceId` and `taskId` (`bindOperationLogger`).
 * The fields stay plain until a line is written ({@link lazyChild}): most calls write none.
 * Undefined for a silent binding logger: the call then has no logger of its own and the core
 * logs to its own (a handler given a logger behind a binding given none still logs).
 */
export function requestLogger(logger: Logger, binding: BindingName, header: (name: string) => string | undefined): Logger | undefined {
  if (logger === silentLogger) return undefined;
  const sent = header(REQUEST_ID_HEADER);
  // A fresh id is flattened (`newId`): the logger keeps it for as long as the call lives (an
  // idle stream's whole life), and the rope Node builds a UUID as costs ~480 bytes, not ~60.
  const reqId = sent && sent.length <= MAX_REQUEST_ID_LENGTH && REQUEST_ID_SHAPE.test(sent) ? sent : newId();
  return lazyChild(logger, { binding, reqId });
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
    addressCharged?: boolean;
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
