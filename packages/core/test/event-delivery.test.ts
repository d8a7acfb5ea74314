import type { StreamResponse } from '@a2a-polyglot/model';
import { TaskState } from '@a2a-polyglot/model';
import {
  A2AErrorCode,
  BoundedWriter,
  type DeliverySink,
  EventDelivery,
  eventStreamFrom,
  type EventStream,
  HeartbeatClock,
  heartbeatClock,
} from '../src/index.js';
import type { LoggedEvent } from '../src/event-log.js';

/** A sink whose room the test sets: writes are recorded, `room = false` is a reader that stopped reading. */
class FakeSink implements DeliverySink<readonly string[]> {
  readonly writes: string[][] = [];
  room = true;
  open = true;
  ended = false;
  private wakeUp: () => void = () => undefined;
  private closedUp: () => void = () => undefined;
  /** Room goes away after this many more writes (undefined: never by itself). */
  roomFor: number | undefined;

  write(chunk: readonly string[]): void {
    this.writes.push([...chunk]);
    if (this.roomFor !== undefined && --this.roomFor <= 0) this.room = false;
  }
  hasRoom(): boolean {
    return this.room;
  }
  isOpen(): boolean {
    return this.open;
  }
  attach(wake: () => void, closed: () => void): void {
    this.wakeUp = wake;
    this.closedUp = closed;
  }
  end(): void {
    this.ended = true;
  }
  /** The reader read: room is back. */
  drain(): void {
    this.room = true;
    this.wakeUp();
  }
  /** The transport closed. */
  hangUp(): void {
    this.open = false;
    this.closedUp();
  }
  get frames(): string[] {
    return this.writes.flat();
  }
}

function status(state: TaskState): StreamResponse {
  return {
    payload: {
      $case: 'statusUpdate',
      value: { taskId: 't', contextId: 'c', status: { state, message: undefined, timestamp: undefined }, metadata: undefined },
    },
  };
}

const MESSAGE: StreamResponse = {
  payload: {
    $case: 'message',
    value: { messageId: 'm', contextId: '', taskId: '', role: 2, parts: [], metadata: undefined, extensions: [], referenceTaskIds: [] },
  },
};

/** A stream fed by the test: `push` makes events ready (one batch per push), `end` ends it; it counts pulls and closes. */
class FedStream implements EventStream {
  private ready: LoggedEvent[][] = [];
  private waiting: ((batch: readonly LoggedEvent[] | undefined) => void) | undefined;
  private ended = false;
  pulls = 0;
  closed = false;
  failWith: Error | undefined;

  push(...events: LoggedEvent[]): void {
    this.ready.push(events);
    this.flush();
  }
  end(): void {
    this.ended = true;
    this.flush();
  }
  nextBatch(): Promise<readonly LoggedEvent[] | undefined> {
    this.pulls++;
    if (this.failWith) return Promise.reject(this.failWith);
    return new Promise((resolve) => {
      this.waiting = resolve;
      this.flush();
    });
  }
  close(): void {
    this.closed = true;
  }
  [Symbol.asyncIterator](): AsyncIterator<LoggedEvent> {
    throw new Error('not used');
  }
  private flush(): void {
    const waiting = this.waiting;
    if (!waiting) return;
    const batch = this.ready.shift();
    if (batch) {
      this.waiting = undefined;
      waiting(batch);
    } else if (this.ended) {
      this.waiting = undefined;
      waiting(undefined);
    }
  }
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 10_000 && !condition(); i++) await new Promise((r) => setImmediate(r));
  expect(condition()).toBe(true);
}

const events = (from: number, count: number): LoggedEvent[] => Array.from({ length: count }, (_, i) => ({ seq: from + i, event: MESSAGE }));

describe('EventDelivery', () => {
  it('hands a batch to the sink in groups of up to the group limit, one write each, and tracks the resume cursor', async () => {
    const sink = new FakeSink();
    const writer = new BoundedWriter(sink);
    const stream = new FedStream();
    const firsts: number[] = [];
    const delivery = new EventDelivery(stream, writer, {
      encode: ({ seq }) => `e${seq}`,
      frameSize: () => 10,
      groupLimit: 30,
      onFirst: ({ seq }) => firsts.push(seq),
    });
    const running = delivery.run();
    stream.push(...events(1, 7));
    stream.push({ seq: 8, event: status(TaskState.TASK_STATE_WORKING) }, { seq: 9, event: MESSAGE });
    stream.end();
    const result = await running;
    expect(sink.writes).toEqual([['e1', 'e2', 'e3'], ['e4', 'e5', 'e6'], ['e7'], ['e8', 'e9']]);
    expect(result).toMatchObject({ end: 'done', error: undefined, firstSeq: 1, lastSeq: 9, lastState: TaskState.TASK_STATE_WORKING });
    expect(firsts).toEqual([1]);
    expect(stream.closed).toBe(true);
  });

  it('writes each frame on its own without a frame size, and stops pulling while the sink has no room (backpressure)', async () => {
    const sink = new FakeSink();
    sink.roomFor = 2;
    const stream = new FedStream();
    const delivery = new EventDelivery(stream, new BoundedWriter(sink), { encode: ({ seq }) => `e${seq}` });
    const running = delivery.run();
    stream.push(...events(1, 5));
    await until(() => sink.writes.length === 2);
    stream.push(...events(6, 1));
    // Full: the rest of the batch waits, and nothing more is pulled.
    await new Promise((r) => setImmediate(r));
    expect(sink.writes).toEqual([['e1'], ['e2']]);
    expect(stream.pulls).toBe(1);
    sink.roomFor = undefined;
    sink.drain();
    await until(() => sink.frames.length === 6);
    expect(sink.frames).toEqual(['e1', 'e2', 'e3', 'e4', 'e5', 'e6']);
    stream.end();
    expect((await running).end).toBe('done');
  });

  it('stop() while it waits for room ends it at once, closes the stream and keeps the cursor of what was sent', async () => {
    const sink = new FakeSink();
    sink.roomFor = 1;
    const stream = new FedStream();
    const delivery = new EventDelivery(stream, new BoundedWriter(sink), { encode: ({ seq }) => `e${seq}` });
    const running = delivery.run();
    stream.push(...events(4, 3));
    await until(() => sink.writes.length === 1);
    delivery.stop();
    const result = await running;
    expect(result).toMatchObject({ end: 'stopped', firstSeq: 4, lastSeq: 4 });
    expect(stream.closed).toBe(true);
  });

  it('stop() while it waits for the next event wakes the pull, even from a stream that ignores close()', async () => {
    const stream: EventStream = {
      nextBatch: () => new Promise(() => undefined),
      close: () => undefined,
      [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => undefined) }),
    };
    const delivery = new EventDelivery(stream, new BoundedWriter(new FakeSink()), { encode: () => 'x' });
    const running = delivery.run();
    await new Promise((r) => setImmediate(r));
    delivery.stop();
    expect((await running).end).toBe('stopped');
  });

  it('stops on an aborted signal and when the sink hangs up', async () => {
    const controller = new AbortController();
    const stream = new FedStream();
    const running = new EventDelivery(stream, new BoundedWriter(new FakeSink()), { encode: () => 'x', signal: controller.signal }).run();
    controller.abort();
    expect((await running).end).toBe('stopped');

    const sink = new FakeSink();
    const other = new FedStream();
    let delivery: EventDelivery<string> | undefined;
    const writer = new BoundedWriter(sink, { onClose: () => delivery?.stop() });
    delivery = new EventDelivery(other, writer, { encode: () => 'x' });
    const hungUp = delivery.run();
    await until(() => other.pulls === 1);
    sink.hangUp();
    expect((await hungUp).end).toBe('stopped');
    expect(other.closed).toBe(true);
  });

  it('reports a failing stream or encoder once as an A2AError, never rejects', async () => {
    const stream = new FedStream();
    stream.failWith = new Error('boom');
    const failed = await new EventDelivery(stream, new BoundedWriter(new FakeSink()), { encode: () => 'x' }).run();
    expect(failed.end).toBe('failed');
    expect(failed.error?.code).toBe(A2AErrorCode.Internal);
    expect(stream.closed).toBe(true);

    const sink = new FakeSink();
    const encoding = new FedStream();
    const running = new EventDelivery(encoding, new BoundedWriter(sink), {
      encode: ({ seq }) => {
        if (seq === 2) throw new Error('too large');
        return `e${seq}`;
      },
      frameSize: () => 1,
    }).run();
    encoding.push(...events(1, 3));
    const result = await running;
    expect(result.end).toBe('failed');
    expect(sink.writes).toEqual([]);
  });

  it('lets the event loop turn while it delivers an always-ready stream to a sink that is never full', async () => {
    let turns = 0;
    let ticking = true;
    const tick = () => {
      turns++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    let n = 0;
    const stream = eventStreamFrom({
      close: () => undefined,
      async *[Symbol.asyncIterator]() {
        while (n < 5000) yield { seq: ++n, event: MESSAGE };
      },
    });
    const sink = new FakeSink();
    await new EventDelivery(stream, new BoundedWriter(sink), { encode: () => 'x', frameSize: () => 1 }).run();
    ticking = false;
    expect(sink.frames.length).toBe(5000);
    expect(turns).toBeGreaterThan(5000 / 256 - 1);
  });
});

describe('BoundedWriter', () => {
  afterEach(() => jest.useRealTimers());

  it('calls onStall once when the sink stays without room past the stall timeout, and closes', () => {
    jest.useFakeTimers();
    const sink = new FakeSink();
    let stalls = 0;
    let closes = 0;
    const writer = new BoundedWriter(sink, { stallTimeoutMs: 100, onStall: () => stalls++, onClose: () => closes++ });
    sink.room = false;
    expect(writer.write(['a'])).toBe(false);
    let released: boolean | undefined;
    void writer.ready().then((room) => (released = room));
    jest.advanceTimersByTime(99);
    expect(stalls).toBe(0);
    jest.advanceTimersByTime(1);
    expect(stalls).toBe(1);
    expect(closes).toBe(1);
    expect(writer.open).toBe(false);
    jest.advanceTimersByTime(1000);
    expect(stalls).toBe(1);
    return Promise.resolve().then(() => expect(released).toBe(false));
  });

  it('does not stall when room comes back in time, nor once closed', () => {
    jest.useFakeTimers();
    let stalls = 0;
    const sink = new FakeSink();
    const writer = new BoundedWriter(sink, { stallTimeoutMs: 100, onStall: () => stalls++ });
    sink.room = false;
    writer.write(['a']);
    jest.advanceTimersByTime(50);
    sink.drain();
    jest.advanceTimersByTime(200);
    const closed = new FakeSink();
    const other = new BoundedWriter(closed, { stallTimeoutMs: 100, onStall: () => stalls++ });
    closed.room = false;
    other.write(['a']);
    other.close();
    jest.advanceTimersByTime(200);
    expect(stalls).toBe(0);
    expect(writer.open).toBe(true);
  });

  it('keeps guarding the unread tail of a writer ended without room', () => {
    jest.useFakeTimers();
    let stalls = 0;
    const sink = new FakeSink();
    const writer = new BoundedWriter(sink, { stallTimeoutMs: 100, onStall: () => stalls++ });
    sink.room = false;
    writer.write(['last']);
    writer.end();
    expect(sink.ended).toBe(true);
    expect(writer.write(['dropped'])).toBe(false);
    jest.advanceTimersByTime(100);
    expect(stalls).toBe(1);
    expect(sink.frames).toEqual(['last']);
  });

  it('sends a heartbeat only to a stream that wrote nothing for a period and has room, on one shared clock', () => {
    jest.useFakeTimers();
    const clock = heartbeatClock(1000);
    const busy = new FakeSink();
    const idle = new FakeSink();
    const full = new FakeSink();
    const writers = [busy, idle, full].map((sink) => new BoundedWriter(sink, { heartbeatMs: 1000, heartbeat: ['ping'] }));
    expect(clock.size).toBe(3);
    full.room = false;
    jest.advanceTimersByTime(1000); // the first tick counts from joining: nobody is pinged yet
    for (let t = 0; t < 3; t++) {
      writers[0]!.write(['event']);
      jest.advanceTimersByTime(1000);
    }
    expect(busy.frames).toEqual(['event', 'event', 'event']);
    expect(idle.frames).toEqual(['ping', 'ping', 'ping']);
    expect(full.frames).toEqual([]);
    for (const writer of writers) writer.close();
    expect(clock.size).toBe(0);
  });

  it('ticks every member of a clock once per period and stops its timer when empty', () => {
    jest.useFakeTimers();
    const clock = new HeartbeatClock(1000);
    const a = { heartbeatTick: jest.fn() };
    const b = { heartbeatTick: jest.fn() };
    clock.join(a);
    clock.join(b);
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(2000);
    expect(a.heartbeatTick).toHaveBeenCalledTimes(2);
    expect(b.heartbeatTick).toHaveBeenCalledTimes(2);
    clock.leave(a);
    clock.leave(b);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('polls a sink that signals no room of its own while a producer waits, and releases waiters on close', async () => {
    jest.useFakeTimers();
    const sink = Object.assign(new FakeSink(), { pollMs: 10 });
    const writer = new BoundedWriter(sink);
    sink.room = false;
    let room: boolean | undefined;
    void writer.ready().then((r) => (room = r));
    sink.room = true; // no wake-up: only the poll sees it
    jest.advanceTimersByTime(10);
    await Promise.resolve();
    expect(room).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
    sink.room = false;
    let closed: boolean | undefined;
    writer.whenRoom((r) => (closed = r));
    writer.close();
    expect(closed).toBe(false);
  });
});
