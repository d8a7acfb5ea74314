import type { StreamResponse } from '@a2a-polyglot/model';
import { context, propagation, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';
import type { Logger } from '../logger.js';
import { silentLogger } from '../logger.js';
import type { ProtocolVersion } from '../protocol-version.js';
import { sleep } from '../util.js';
import type { StoredPushConfig } from './push-config-store.js';
import { V1_WEBHOOK_ENCODING, type WebhookEncoding, type WebhookEncodings } from './webhook-encoding.js';
import { fetchWebhookTransport } from './fetch-webhook-transport.js';
import type { WebhookTransport } from './webhook-transport.js';
import { pinWebhookTarget, WebhookRefused, type WebhookResolver } from './webhook-target.js';

/**
 * How one event's delivery to one webhook ended, for metrics: `delivered` (a 2xx), `rejected`
 * (a final answer other than 2xx: a 4xx but 429, or a redirect, which is never followed),
 * `refused` (the URL or its address is not allowed, see {@link pinWebhookTarget}), `failed`
 * (every attempt met a 5xx, a 429 or a network error). `dropped` is the dispatcher's: the
 * event reached no webhook because the task's configs could not be read.
 */
export type PushOutcome = 'delivered' | 'rejected' | 'refused' | 'failed' | 'dropped';

/** Delivers one StreamResponse to one webhook. */
export interface PushSender {
  /**
   * Resolves when delivered or when delivery was given up (never rejects), with how it ended
   * (a sender that resolves nothing is not counted in metrics). The body is written in the
   * generation the config was registered in ({@link StoredPushConfig.protocolVersion}).
   */
  // biome-ignore lint/suspicious/noConfusingVoidType: senders written before outcomes (`async send(): Promise<void>`) stay valid
  send(config: StoredPushConfig, event: StreamResponse): Promise<PushOutcome | undefined | void>;
}

/** Tuning of {@link HttpPushSender}. */
export interface HttpPushSenderOptions {
  /** Per-attempt timeout. Default 10 s (spec §9 suggests 10–30 s). */
  readonly timeoutMs?: number;
  /** Attempts per event, first included. Default 3. */
  readonly attempts?: number;
  /** First retry delay, doubled each retry. Default 200 ms. */
  readonly backoffMs?: number;
  readonly logger?: Logger;
  /**
   * Deliver to loopback, private and other non-public addresses (tests, single-host setups).
   * Default false. With a {@link resolve}r, host names are still resolved once per attempt
   * and the connection pinned.
   */
  readonly allowPrivateNetworks?: boolean;
  /**
   * Resolves host names at each attempt so the transport connects to the checked address
   * (DNS pinning): `systemResolver` of `@a2a-polyglot/http`, with its `pinnedHttpTransport`.
   * None by default: only the URL policy is checked and the runtime resolves the name.
   */
  readonly resolve?: WebhookResolver;
  /**
   * Sends the POST; default {@link fetchWebhookTransport} (global `fetch`, every runtime, no
   * DNS pinning). On Node pass `PINNED_WEBHOOK_NETWORK` of `@a2a-polyglot/http` (both
   * `resolve` and `transport`). Injectable for tests.
   */
  readonly transport?: WebhookTransport;
  /**
   * Bodies for configs registered in a generation other than 1.0 (`{ '0.3': V03_WEBHOOK_ENCODING }`
   * from `@a2a-polyglot/v03/json`). A config of a generation without one gets the v1.0 body,
   * with a warning: its receiver likely cannot read it.
   */
  readonly encodings?: WebhookEncodings;
}

/**
 * Webhook delivery: `POST <url>` with the body of the config's generation — v1.0: `Content-Type:
 * application/a2a+json` and a StreamResponse (spec §9); v0.3: the encoding given in
 * {@link HttpPushSenderOptions.encodings}. Sends `Authorization: <scheme> <credentials>` from
 * the config's `authentication` and the token in `X-A2A-Notification-Token` (the header both
 * official SDKs use, v0.3 ones included), so receivers built for either SDK accept it.
 *
 * Each attempt re-checks the URL and, given a resolver, resolves the host once and connects to
 * the address it checked (see {@link pinWebhookTarget}); a refusal is final and logged.
 * Without one (the default, for fetch runtimes) the name is the runtime's to resolve: no DNS
 * pinning. The same delivery rules either way, over any {@link WebhookTransport}. Redirects are never
 * followed: a 3xx could send the POST to an address nobody checked, so it is a failed
 * delivery. Retries 5xx, 429, resolution and network failures with exponential backoff;
 * other 4xx are final.
 */
export class HttpPushSender implements PushSender {
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly logger: Logger;
  private readonly allowPrivateNetworks: boolean;
  private readonly resolve: WebhookResolver | undefined;
  private readonly transport: WebhookTransport;
  private readonly encodings: WebhookEncodings;
  /** Generations a config was found in without an encoding (warned about once each). */
  private readonly unencoded = new Set<ProtocolVersion>();

  constructor(options: HttpPushSenderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.attempts = Math.max(1, options.attempts ?? 3);
    this.backoffMs = options.backoffMs ?? 200;
    this.logger = options.logger ?? silentLogger;
    this.allowPrivateNetworks = options.allowPrivateNetworks ?? false;
    this.resolve = options.resolve;
    this.transport = options.transport ?? fetchWebhookTransport;
    this.encodings = options.encodings ?? {};
  }

  /**
   * One delivery in a CLIENT span (`a2a.push.deliver`, child of the task's run or operation)
   * whose W3C trace context travels in the POST's `traceparent`, so the receiver's trace
   * continues the task's. No-op spans and no header without an OpenTelemetry SDK.
   */
  send(config: StoredPushConfig, event: StreamResponse): Promise<PushOutcome> {
    const attributes = {
      'a2a.task.id': config.taskId,
      'a2a.push.config.id': config.id,
      'http.request.method': 'POST',
      'url.full': urlWithoutQuery(config.url),
    };
    return tracer.startActiveSpan('a2a.push.deliver', { kind: SpanKind.CLIENT, attributes }, (span) =>
      this.deliver(config, event, span).finally(() => span.end()),
    );
  }

  private async deliver(config: StoredPushConfig, event: StreamResponse, span: Span): Promise<PushOutcome> {
    const encoding = this.encodingOf(config);
    const headers: Record<string, string> = { 'content-type': encoding.contentType };
    propagation.inject(context.active(), headers);
    if (config.authentication?.scheme) {
      headers.authorization = `${config.authentication.scheme} ${config.authentication.credentials}`.trim();
    }
    if (config.token) headers['x-a2a-notification-token'] = config.token;
    const body = encoding.body(event);
    const ids = { taskId: config.taskId, configId: config.id };
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      try {
        const target = await pinWebhookTarget(config.url, this.allowPrivateNetworks, this.resolve);
        const status = await this.transport(target, { headers, body, timeoutMs: this.timeoutMs });
        span.setAttributes({ 'http.response.status_code': status, 'a2a.push.attempts': attempt });
        if (status >= 200 && status < 300) {
          if (attempt > 1) span.setStatus({ code: SpanStatusCode.OK });
          return 'delivered';
        }
        failed(span, `HTTP ${status}`);
        if (status >= 300 && status < 400) {
          this.logger.warn({ ...ids, status }, 'push delivery failed: the webhook redirected, and redirects are not followed');
          return 'rejected';
        }
        if (status < 500 && status !== 429) {
          this.logger.warn({ ...ids, status }, 'push delivery rejected');
          return 'rejected';
        }
        this.logger.warn({ ...ids, status, attempt }, 'push delivery failed');
      } catch (error) {
        failed(span, (error as Error).message);
        if (error instanceof WebhookRefused) {
          this.logger.warn({ ...ids, reason: error.message }, 'push delivery refused');
          return 'refused';
        }
        this.logger.warn({ ...ids, attempt, err: (error as Error).message }, 'push delivery error');
      }
      if (attempt < this.attempts) await sleep(this.backoffMs * 2 ** (attempt - 1));
    }
    this.logger.error(ids, 'push delivery gave up');
    return 'failed';
  }

  /** The encoding of the generation the config was registered in (v1.0 without one). */
  private encodingOf(config: StoredPushConfig): WebhookEncoding {
    const generation = config.protocolVersion ?? '1.0';
    if (generation === '1.0') return V1_WEBHOOK_ENCODING;
    const encoding = this.encodings[generation];
    if (encoding) return encoding;
    if (!this.unencoded.has(generation)) {
      this.unencoded.add(generation);
      this.logger.warn({ protocolVersion: generation }, 'push delivery: no webhook encoding for this generation; sending v1.0 bodies');
    }
    return V1_WEBHOOK_ENCODING;
  }
}

/** The push sender's spans (a no-op tracer until an OpenTelemetry SDK registers a provider). */
const tracer = trace.getTracer('@a2a-polyglot/core');

/** Marks a delivery span failed (a later successful attempt clears it). */
function failed(span: Span, message: string): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message });
}

/** A webhook URL as a span may show it: query and credentials dropped (they may hold tokens). */
function urlWithoutQuery(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '';
  }
}
