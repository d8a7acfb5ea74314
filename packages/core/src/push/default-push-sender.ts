import type { StreamResponse } from '@a2a-polyglot/model';
import { FETCH_WEBHOOK_NETWORK } from './fetch-webhook-transport.js';
import type { StoredPushConfig } from './push-config-store.js';
import { HttpPushSender, type HttpPushSenderOptions, type PushOutcome, type PushSender } from './push-sender.js';
import type { WebhookNetwork } from './webhook-transport.js';

/**
 * The sender of a `RequestHandler` whose options name none: an {@link HttpPushSender} over
 * the network the options give (`webhookNetwork`), else the one the entry point serving the
 * handler offers ({@link offer}: the node:http entry points of `@a2a-polyglot/server` offer
 * the pinned node:http one), else {@link FETCH_WEBHOOK_NETWORK}. Why the late choice: the core
 * runs on every runtime and imports no node:http, and the handler is built before it is
 * served, so the runtime's best network is known only then. Built at the first delivery.
 */
export class DefaultPushSender implements PushSender {
  private sender: HttpPushSender | undefined;

  constructor(
    private readonly options: Omit<HttpPushSenderOptions, 'resolve' | 'transport'>,
    private network?: WebhookNetwork,
  ) {}

  /** Uses `network` unless one was given or offered already, or a delivery has started. */
  offer(network: WebhookNetwork): void {
    if (!this.network && !this.sender) this.network = network;
  }

  send(config: StoredPushConfig, event: StreamResponse): Promise<PushOutcome> {
    this.sender ??= new HttpPushSender({ ...this.options, ...(this.network ?? FETCH_WEBHOOK_NETWORK) });
    return this.sender.send(config, event);
  }
}
