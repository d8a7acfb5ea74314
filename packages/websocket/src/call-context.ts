import { requestLogger, type CallContext, type ClientCertificate, type Logger } from '@a2a-polyglot/core';

/** What a call knows of its socket besides the headers: the peer's address and verified certificate, and the binding's logger. */
export interface WebSocketCallExtras {
  readonly remoteAddress?: string;
  readonly clientCertificate?: ClientCertificate;
  /** The frame's address point is spent (see `CallContext.addressCharged`). */
  readonly addressCharged?: boolean;
  /** The binding's logger; the call gets its {@link requestLogger} child (binding, reqId). */
  readonly logger?: Logger;
}

/**
 * The {@link CallContext} of one WebSocket request: the message's `serviceParams` over the
 * upgrade request's headers (both already lower-case), and the call's abort signal made only
 * when somebody reads it.
 *
 * Why not core's `callContext`: that copies every header into a fresh Map per call, and the
 * binding would make an AbortController per call up front. A socket serves many calls with
 * the same headers, and most unary calls are answered before anything listens for the caller
 * leaving; per call this costs one small object. (A class, not an object literal with a
 * getter: such a literal is built by the runtime, slowly, on every call.)
 */
export function webSocketCallContext(
  headers: Readonly<Record<string, string>>,
  serviceParams: Readonly<Record<string, string>>,
  signal: () => AbortSignal,
  extras: WebSocketCallExtras = {},
): CallContext {
  return new WebSocketCallContext(headers, serviceParams, signal, extras);
}

class WebSocketCallContext implements CallContext {
  readonly binding = 'WEBSOCKET';
  readonly remoteAddress: string | undefined;
  readonly clientCertificate: ClientCertificate | undefined;
  readonly addressCharged: boolean;
  activatedExtensions?: readonly string[];
  logger?: Logger;

  constructor(
    private readonly headers: Readonly<Record<string, string>>,
    private readonly serviceParams: Readonly<Record<string, string>>,
    private readonly signalOf: () => AbortSignal,
    extras: WebSocketCallExtras,
  ) {
    this.remoteAddress = extras.remoteAddress;
    this.clientCertificate = extras.clientCertificate;
    this.addressCharged = extras.addressCharged ?? false;
    const logger = extras.logger && requestLogger(extras.logger, 'WEBSOCKET', (name) => this.header(name));
    if (logger) this.logger = logger;
  }

  get signal(): AbortSignal {
    return this.signalOf();
  }

  header(name: string): string | undefined {
    const key = name.toLowerCase();
    if (Object.hasOwn(this.serviceParams, key)) return this.serviceParams[key];
    return Object.hasOwn(this.headers, key) ? this.headers[key] : undefined;
  }
}

/**
 * Response service parameters of a call (the HTTP bindings' response headers): today the
 * activated extensions, carried by the answer or the `streamStart` frame.
 */
export function responseParams(contexts: readonly CallContext[]): Record<string, string> | undefined {
  if (!contexts.some((ctx) => ctx.activatedExtensions?.length)) return undefined;
  const uris = new Set<string>();
  for (const ctx of contexts) for (const uri of ctx.activatedExtensions ?? []) uris.add(uri);
  return uris.size === 0 ? undefined : { 'A2A-Extensions': [...uris].join(', ') };
}
