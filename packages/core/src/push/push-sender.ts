import { StreamResponse, type TaskPushNotificationConfig } from '@a2a-polyglot/model';
import type { Logger } from '../logger.js';
import { silentLogger } from '../logger.js';
import { sleep } from '../util.js';

/** Delivers one StreamResponse to one webhook. */
export interface PushSender {
  /** Resolves when delivered or when delivery was given up (never rejects). */
  send(config: TaskPushNotificationConfig, event: StreamResponse): Promise<void>;
}

/** Tuning of {@link FetchPushSender}. */
export interface FetchPushSenderOptions {
  /** Per-attempt timeout. Default 10 s (spec §9 suggests 10–30 s). */
  readonly timeoutMs?: number;
  /** Attempts per event, first included. Default 3. */
  readonly attempts?: number;
  /** First retry delay, doubled each retry. Default 200 ms. */
  readonly backoffMs?: number;
  readonly logger?: Logger;
  /** Injectable for tests; defaults to the global fetch. */
  readonly fetch?: typeof fetch;
}

/**
 * Webhook delivery over `fetch`: `POST <url>` with `Content-Type: application/a2a+json` and a
 * StreamResponse body (spec §9). Sends `Authorization: <scheme> <credentials>` from the
 * config's `authentication` and the token in `X-A2A-Notification-Token` (the header both
 * official SDKs use), so receivers built for either SDK accept it. Retries 5xx, 429 and
 * network failures with exponential backoff; 4xx other than 429 is final.
 */
export class FetchPushSender implements PushSender {
  private readonly timeoutMs: number;
  private readonly attempts: number;
  private readonly backoffMs: number;
  private readonly logger: Logger;
  private readonly fetchImpl: typeof fetch;

  constructor(options: FetchPushSenderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.attempts = Math.max(1, options.attempts ?? 3);
    this.backoffMs = options.backoffMs ?? 200;
    this.logger = options.logger ?? silentLogger;
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  }

  async send(config: TaskPushNotificationConfig, event: StreamResponse): Promise<void> {
    const headers: Record<string, string> = { 'content-type': 'application/a2a+json' };
    if (config.authentication?.scheme) {
      headers.authorization = `${config.authentication.scheme} ${config.authentication.credentials}`.trim();
    }
    if (config.token) headers['x-a2a-notification-token'] = config.token;
    const body = JSON.stringify(StreamResponse.toJSON(event));
    for (let attempt = 1; attempt <= this.attempts; attempt++) {
      try {
        const res = await this.fetchImpl(config.url, { method: 'POST', headers, body, signal: AbortSignal.timeout(this.timeoutMs) });
        await res.body?.cancel().catch(() => undefined);
        if (res.ok) return;
        if (res.status < 500 && res.status !== 429) {
          this.logger.warn('push delivery rejected', { taskId: config.taskId, configId: config.id, status: res.status });
          return;
        }
        this.logger.warn('push delivery failed', { taskId: config.taskId, configId: config.id, status: res.status, attempt });
      } catch (error) {
        this.logger.warn('push delivery error', { taskId: config.taskId, configId: config.id, attempt, error: (error as Error).message });
      }
      if (attempt < this.attempts) await sleep(this.backoffMs * 2 ** (attempt - 1));
    }
    this.logger.error('push delivery gave up', { taskId: config.taskId, configId: config.id });
  }
}
