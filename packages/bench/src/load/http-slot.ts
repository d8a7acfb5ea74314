import type { OpOutcome, Slot } from './closed-loop.js';
import { httpPartOf, type RequestSpec } from './job.js';
import { RawHttpConnection } from './raw-http-client.js';
import { IdTemplate, now, type ObserveFirst } from './slot-support.js';
import { SseCounter } from './sse-counter.js';

/** HTTP/1.1 keep-alive slot: unary JSON or a whole SSE stream per operation. */
export class HttpSlot implements Slot {
  private conn: RawHttpConnection | undefined;
  private readonly template: IdTemplate;

  constructor(
    private readonly spec: RequestSpec,
    index: number,
    private observe: ObserveFirst | undefined,
  ) {
    this.template = new IdTemplate(Buffer.from(httpPartOf(spec), 'utf8'), index);
  }

  run(done: (outcome: OpOutcome) => void): void {
    const request = this.template.next();
    const go = (conn: RawHttpConnection) => {
      const stream = this.spec.shape === 'stream';
      const observe = this.observe;
      const sse = stream ? new SseCounter({ keep: observe !== undefined }) : undefined;
      const body: Buffer[] | undefined = !stream && observe ? [] : undefined;
      let firstEventAt: bigint | undefined;
      conn.send(request, {
        onBody: sse
          ? (chunk) => {
              if (sse.push(chunk) > 0 && firstEventAt === undefined) firstEventAt = now();
            }
          : body
            ? (chunk) => body.push(Buffer.from(chunk))
            : undefined,
        onEnd: (status) => {
          const events = sse ? sse.events : 1;
          const ok = status === 200 && events > 0;
          if (ok && observe) {
            this.observe = undefined;
            observe(sse ? { first: sse.first, last: sse.last, events } : { body: Buffer.concat(body ?? []), events });
          }
          done({ ok, events, firstEventAt, error: ok ? undefined : `HTTP ${status}${events === 0 ? ' (no event)' : ''}` });
        },
        onError: (error) => {
          this.conn = undefined;
          done({ ok: false, events: 0, error: error.message });
        },
      });
    };
    if (this.conn?.alive) go(this.conn);
    else
      RawHttpConnection.connect(this.spec.host, this.spec.port).then(
        (conn) => {
          this.conn = conn;
          go(conn);
        },
        (error: Error) => done({ ok: false, events: 0, error: error.message }),
      );
  }

  close(): void {
    this.conn?.close();
    this.conn = undefined;
  }
}
