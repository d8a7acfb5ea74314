import type { RequestHandler } from '@a2a-polyglot/core';
import type { CallOptions, CallResult, Driver, OpenResult, ProbeKind } from '../driver.js';
import { fetchAgentCard, startServerUnderTest } from './http-common.js';

/**
 * What the drivers of the HTTP bindings (JSON-RPC, REST, REST v0.3) share: the address they
 * send to, card discovery at the card URL, and `close()` stopping the server under test.
 * @internal
 */
export abstract class HttpDriver implements Driver {
  abstract readonly binding: string;

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
    return fetchAgentCard(this.cardUrl);
  }

  close(): Promise<void> {
    return this.onClose();
  }
}

/**
 * Starts a fresh `@a2a-polyglot/server` for `handler` and a driver on it, given the A2A base
 * URL (`${url}/a2a`) and the card URL; the driver's `close()` stops the server.
 * @internal
 */
export async function startHttpDriver<D extends Driver>(
  handler: RequestHandler,
  driver: (baseUrl: string, cardUrl: string, close: () => Promise<void>) => D,
): Promise<D> {
  const server = await startServerUnderTest(handler);
  return driver(`${server.url}${server.basePath}`, `${server.url}/.well-known/agent-card.json`, () => server.close());
}
