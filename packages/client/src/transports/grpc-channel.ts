import { A2AError, A2AErrorCode, GRPC_METADATA } from '@a2a-polyglot/core';
import { credentials as grpcCredentials, Metadata, type CallOptions, type ChannelCredentials } from '@grpc/grpc-js';
import { A2A_VERSION } from '../http.js';

/** Connection settings shared by the standard and the session client. */
export interface GrpcClientOptions {
  /**
   * The agent's gRPC address: `host:port` (what `AgentInterface.url` holds for GRPC), or a
   * URL (`grpc://`, `http://`, `https://host[:port][/path]`, as older cards wrote it; the
   * path is ignored, `https` implies TLS and port 443).
   */
  readonly url: string;
  /** Channel credentials. Default: TLS for `https://` URLs, plaintext otherwise. */
  readonly credentials?: ChannelCredentials;
  /** Metadata sent with every call, e.g. `{ authorization: 'Bearer …' }`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Extensions to activate on every call (`a2a-extensions`). */
  readonly extensions?: readonly string[];
  /** grpc-js channel options (`grpc.max_receive_message_length`, keepalive, ...). */
  readonly channelOptions?: Readonly<Record<string, string | number>>;
  /**
   * `false` sends no `a2a-version` metadata: A2A v0.3 had none, and servers read its absence as
   * 0.3 (the client's v0.3 transport). Default: `a2a-version: 1.0` on every call.
   */
  readonly versionMetadata?: boolean;
}

/** Per-call options. */
export interface GrpcCallOptions {
  /** Aborting cancels the call (the task, if any, keeps running). */
  readonly signal?: AbortSignal;
  /** Deadline, relative. Unary calls default to none (the server's own limits apply). */
  readonly timeoutMs?: number;
  /** Extra metadata for this call. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Extensions for this call (replaces the client-wide list). */
  readonly extensions?: readonly string[];
}

/** Resolves the `url` option into a grpc-js target and default credentials. */
export function resolveTarget(url: string, explicit?: ChannelCredentials): { target: string; credentials: ChannelCredentials } {
  const match = /^([a-z][a-z0-9+.-]*):\/\/([^/?#]+)/i.exec(url.trim());
  if (!match) {
    if (!url.trim()) throw new A2AError(A2AErrorCode.InvalidParams, 'A gRPC url (host:port) is required');
    return { target: url.trim(), credentials: explicit ?? grpcCredentials.createInsecure() };
  }
  const [, schemeName = '', authority = ''] = match; // both groups are mandatory in the pattern
  const scheme = schemeName.toLowerCase();
  const secure = scheme === 'https' || scheme === 'grpcs';
  const hasPort = /:\d+$/.test(authority);
  const target = hasPort ? authority : `${authority}:${secure ? 443 : 80}`;
  return { target, credentials: explicit ?? (secure ? grpcCredentials.createSsl() : grpcCredentials.createInsecure()) };
}

/** Request metadata of one call: version, extensions, headers (client-wide, then per call). */
export function requestMetadata(client: GrpcClientOptions, call: GrpcCallOptions = {}, extra: Record<string, string> = {}): Metadata {
  const md = new Metadata();
  for (const [k, v] of Object.entries({ ...client.headers, ...call.headers, ...extra })) md.set(k.toLowerCase(), v);
  if (client.versionMetadata !== false) md.set(GRPC_METADATA.version, A2A_VERSION);
  const extensions = call.extensions ?? client.extensions ?? [];
  if (extensions.length > 0) md.set(GRPC_METADATA.extensions, extensions.join(','));
  return md;
}

/** grpc-js call options of one call. */
export function callOptions(call: GrpcCallOptions = {}): Partial<CallOptions> {
  return call.timeoutMs === undefined ? {} : { deadline: Date.now() + call.timeoutMs };
}

/** Reads the activated extensions a server echoed in response metadata. */
export function echoedExtensions(md: Metadata | undefined): string[] {
  const raw = md?.get(GRPC_METADATA.extensions) ?? [];
  return raw
    .filter((v): v is string => typeof v === 'string')
    .flatMap((v) => v.split(','))
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The error a call aborted through its signal rejects with. */
export function abortedError(): A2AError {
  return new A2AError(A2AErrorCode.DeadlineExceeded, 'The call was aborted by the client');
}
