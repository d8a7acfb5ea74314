import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a {@link webhookReceiver} got. */
export interface ReceivedWebhook {
  readonly host: string | undefined;
  readonly url: string | undefined;
  readonly method: string | undefined;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
}

/** A running {@link webhookReceiver}. */
export interface WebhookReceiverHandle {
  readonly received: ReceivedWebhook[];
  readonly port: number;
  /** `http://<address>:<port>/hook`. */
  readonly url: string;
  /** Closes the server, dropping connections still open (a receiver that never answered). */
  close(): Promise<void>;
}

/**
 * A webhook receiver on `address` (default 127.0.0.1, port 0) that records every request
 * once its body is read and answers it with `answer` (default 204; an `answer` that writes
 * nothing keeps the request hanging). One helper for the push senders' tests on every
 * transport, so each checks what a receiver really got.
 */
export async function webhookReceiver(
  answer: (res: http.ServerResponse) => void = (res) => res.writeHead(204).end(),
  address = '127.0.0.1',
  port = 0,
): Promise<WebhookReceiverHandle> {
  const received: ReceivedWebhook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ host: req.headers.host, url: req.url, method: req.method, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      answer(res);
    });
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, address, resolve));
  const bound = (server.address() as AddressInfo).port;
  const close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  return { received, port: bound, url: `http://${address}:${bound}/hook`, close };
}
