import type { OpOutcome, Slot } from './closed-loop.js';
import { H2GrpcConnection } from './h2-grpc-client.js';
import { grpcRequestHeaderBlock } from './hpack-encode.js';
import { grpcPartOf, type RequestSpec } from './job.js';
import { IdTemplate, now, type ObserveFirst } from './slot-support.js';

/** Shares one HTTP/2 connection among gRPC slots, reconnecting once it dies. */
export class H2Pool {
  private conn: H2GrpcConnection | undefined;
  private connecting: Promise<H2GrpcConnection> | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  get(): Promise<H2GrpcConnection> | H2GrpcConnection {
    if (this.conn?.alive) return this.conn;
    this.connecting ??= H2GrpcConnection.connect(this.host, this.port).then(
      (conn) => {
        this.conn = conn;
        this.connecting = undefined;
        return conn;
      },
      (error) => {
        this.connecting = undefined;
        throw error;
      },
    );
    return this.connecting;
  }

  close(): void {
    this.conn?.close();
    this.conn = undefined;
  }
}

/** gRPC slot: one call in flight at a time on the shared connection. */
export class GrpcSlot implements Slot {
  private readonly template: IdTemplate;
  private readonly headerBlock: Buffer;

  constructor(
    private readonly spec: RequestSpec,
    index: number,
    private readonly pool: H2Pool,
    private observe: ObserveFirst | undefined,
  ) {
    const g = grpcPartOf(spec);
    this.template = new IdTemplate(Buffer.from(g.messageB64, 'base64'), index);
    this.headerBlock = grpcRequestHeaderBlock(g.path, `${spec.host}:${spec.port}`, g.metadata);
  }

  run(done: (outcome: OpOutcome) => void): void {
    const message = this.template.next();
    const go = (conn: H2GrpcConnection) => {
      const observe = this.observe;
      let events = 0;
      let firstEventAt: bigint | undefined;
      let first: Buffer | undefined;
      let last: Buffer | undefined;
      conn.call(
        this.headerBlock,
        message,
        {
          onMessage: (body) => {
            events++;
            if (firstEventAt === undefined) firstEventAt = now();
            if (observe) {
              first ??= body;
              last = body;
            }
          },
          onEnd: (ok, error) => {
            const good = ok && events > 0;
            if (good && observe) {
              this.observe = undefined;
              observe(this.spec.shape === 'unary' ? { body: last, events } : { first, last, events });
            }
            done({ ok: good, events, firstEventAt, error: good ? undefined : (error ?? 'call ended without a message (gRPC error status)') });
          },
        },
        observe !== undefined,
      );
    };
    const conn = this.pool.get();
    if (conn instanceof H2GrpcConnection) go(conn);
    else conn.then(go, (error: Error) => done({ ok: false, events: 0, error: error.message }));
  }

  close(): void {
    // The pool owns the connection.
  }
}
