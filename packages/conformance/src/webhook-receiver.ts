import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One push notification as the receiver got it. */
export interface Delivery {
  readonly path: string;
  readonly contentType: string | undefined;
  readonly authorization: string | undefined;
  /** `X-A2A-Notification-Token`, the header both official SDKs use for the config's token. */
  readonly token: string | undefined;
  /** The parsed body (a StreamResponse JSON), or the raw text if it is not JSON. */
  readonly body: unknown;
}

/**
 * A webhook endpoint on 127.0.0.1 (port 0) that records every POST and answers 200. The
 * scenario refers to its URL as `$webhook.url`; the handler under test is built with
 * `allowPrivateWebhooks` so it may call it.
 */
export class WebhookReceiver {
  readonly deliveries: Delivery[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly server = createServer((req, res) => {
    void readBody(req).then((text) => {
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // keep the raw text: the comparator will show it
      }
      this.deliveries.push({
        path: req.url ?? '',
        contentType: req.headers['content-type'],
        authorization: req.headers.authorization,
        token: header(req, 'x-a2a-notification-token'),
        body,
      });
      res.writeHead(200).end();
      for (const wake of [...this.waiters]) wake();
    });
  });
  private url_ = '';

  /** The webhook URL (valid after {@link start}). */
  get url(): string {
    return this.url_;
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as AddressInfo;
    this.url_ = `http://127.0.0.1:${port}/webhook`;
    return this;
  }

  /** Resolves true once at least `count` deliveries arrived, false after `timeoutMs`. */
  waitFor(count: number, timeoutMs: number): Promise<boolean> {
    if (this.deliveries.length >= count) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve(ok);
      };
      const check = () => {
        if (this.deliveries.length >= count) done(true);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      this.waiters.add(check);
    });
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v.join(',') : v;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}
