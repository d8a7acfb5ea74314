import { EventEmitter } from 'node:events';
import { BoundedWriter } from '@a2a-polyglot/core';
import { GrpcCallSink } from '../src/call-sink.js';

/**
 * A grpc-js-like server call whose writes report backpressure once `windowFull` (as grpc-js does
 * when HTTP/2 stops flushing) and flush only when the test says so.
 */
class FakeCall extends EventEmitter {
  cancelled = false;
  windowFull = false;
  readonly messages: string[] = [];
  private readonly unflushed: Array<() => void> = [];

  write(message: string, callback?: () => void): boolean {
    this.messages.push(message);
    if (callback) this.unflushed.push(callback);
    return !this.windowFull;
  }

  /** HTTP/2 sent the oldest unflushed message. */
  flushOne(): void {
    this.unflushed.shift()?.();
  }

  cancel(): void {
    this.cancelled = true;
    this.emit('cancelled');
  }
}

function writerOver(call: FakeCall, maxPending: number, stall?: { stallTimeoutMs: number; onStall: () => void }) {
  const sink = new GrpcCallSink<string>(call, maxPending);
  return { sink, writer: new BoundedWriter(sink, stall ?? {}) };
}

describe('GrpcCallSink', () => {
  afterEach(() => jest.useRealTimers());

  it('has room while fewer than maxPending messages are unflushed; a flush gives room back and wakes a waiting producer', async () => {
    const call = new FakeCall();
    const { sink, writer } = writerOver(call, 2);
    expect(writer.write(['a'])).toBe(true);
    expect(writer.write(['b'])).toBe(false);
    expect(sink.pendingMessages).toBe(2);
    const ready = writer.ready();
    call.flushOne();
    expect(await ready).toBe(true);
    expect(sink.pendingMessages).toBe(1);
    expect(sink.maxPending).toBe(2);
    expect(sink.written).toBe(2);
    expect(call.messages).toEqual(['a', 'b']);
  });

  it('writes each message of a group on its own and counts each against the bound', () => {
    const call = new FakeCall();
    const { sink, writer } = writerOver(call, 3);
    expect(writer.write(['a', 'b', 'c'])).toBe(false);
    expect(call.messages).toEqual(['a', 'b', 'c']);
    expect(sink.pendingMessages).toBe(3);
  });

  it('has no room after write() returned false until drain, however few messages are unflushed', async () => {
    const call = new FakeCall();
    const { writer } = writerOver(call, 16);
    call.windowFull = true;
    expect(writer.write(['a'])).toBe(false);
    call.flushOne();
    expect(writer.hasRoom()).toBe(false);
    const ready = writer.ready();
    call.windowFull = false;
    call.emit('drain');
    expect(await ready).toBe(true);
  });

  it('closes the writer when the call is cancelled: waiters get false, nothing more is written, listeners are removed', async () => {
    const call = new FakeCall();
    const { writer } = writerOver(call, 1);
    writer.write(['a']);
    const ready = writer.ready();
    call.cancel();
    expect(await ready).toBe(false);
    expect(writer.open).toBe(false);
    expect(writer.write(['b'])).toBe(false);
    expect(call.messages).toEqual(['a']);
    expect(call.listenerCount('drain')).toBe(0);
    expect(call.listenerCount('cancelled')).toBe(0);
  });

  it('stalls once when the client reads nothing past the stall timeout (the binding then ends the call)', () => {
    jest.useFakeTimers();
    const call = new FakeCall();
    call.windowFull = true;
    let stalls = 0;
    const { writer } = writerOver(call, 16, { stallTimeoutMs: 50, onStall: () => stalls++ });
    writer.write(['a']);
    writer.write(['b']);
    jest.advanceTimersByTime(49);
    expect(stalls).toBe(0);
    jest.advanceTimersByTime(1);
    expect(stalls).toBe(1);
    expect(writer.open).toBe(false);
    jest.advanceTimersByTime(500);
    expect(stalls).toBe(1);
  });

  it('does not stall when the call drains in time, nor after it was cancelled', () => {
    jest.useFakeTimers();
    let stalls = 0;
    const drained = new FakeCall();
    drained.windowFull = true;
    const first = writerOver(drained, 16, { stallTimeoutMs: 50, onStall: () => stalls++ });
    first.writer.write(['a']);
    jest.advanceTimersByTime(30);
    drained.windowFull = false;
    drained.emit('drain');
    const cancelled = new FakeCall();
    cancelled.windowFull = true;
    const second = writerOver(cancelled, 16, { stallTimeoutMs: 50, onStall: () => stalls++ });
    second.writer.write(['a']);
    cancelled.cancel();
    jest.advanceTimersByTime(500);
    expect(stalls).toBe(0);
    expect(first.writer.open).toBe(true);
  });
});
