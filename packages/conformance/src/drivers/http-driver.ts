import type { RequestHandler } from '@a2a-polyglot/core';
import type { CallOptions, CallResult, Driver, OpenResult, ProbeKind } from '../driver.js';
import { fetchAgentCard } from './http-common.js';
import { type HttpHost, startHttpHost } from './runtime-hosts.js';

/**
 * What the drivers of the HTTP bindings (JSON-RPC, REST, REST v0.3) share: the address they
 * send to, card discovery at the card URL, and `close()` stopping the server under test.
 * @internal
 */
export abstract class HttpDriver implements Driver {
  abstract readonly binding: string;
  /** How requests reach the server under test (see {@link HttpHost}); set by {@link startHttpDriver}. */
  transport: typeof fetch = (input, init) => fetch(input, init);

  /**
   * @param baseUrl where requests go (the JSON-RPC endpoint, or the REST base URL)
   * @param cardUrl the agent card URL
   * @param onClose stops the server under test
   */
  constructor(
    protected readonly baseUrl: string,
    protected readonly cardUrl: string,
    private readonly onClose: () => Promise<void> = async () => undefined,
  ) {}

  abstract call(operation: string, request: unknown, options?: CallOptions): Promise<CallResult>;
  abstract open(operation: string, request: unknown, options?: CallOptions): Promise<OpenResult>;
  abstract probe(kind: ProbeKind): Promise<CallResult>;

  agentCard(): Promise<CallResult> {
    return fetchAgentCard(this.cardUrl, undefined, this.transport);
  }

  close(): Promise<void> {
    return this.onClose();
  }
}

/**
 * Starts `handler` on `host` (default a fresh `@a2a-polyglot/server` on a socket) and a driver
 * on it, given the A2A base URL (`…/a2a`) and the card URL; the driver's `close()` stops it.
 * @internal
 */
export async function startHttpDriver<D extends HttpDriver>(
  handler: RequestHandler,
  driver: (baseUrl: string, cardUrl: string, close: () => Promise<void>) => D,
  host: HttpHost = 'node',
): Promise<D> {
  const started = await startHttpHost(handler, host);
  const made = driver(started.baseUrl, started.cardUrl, () => started.close());
  made.transport = started.transport;
  return made;
}
