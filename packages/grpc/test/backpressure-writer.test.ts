import { EventEmitter } from 'node:events';
import { waitFor } from '@a2a-polyglot/testing';
import { BackpressureWriter } from '../src/backpressure-writer.js';

/** A call whose writes report backpressure (as grpc-js does once HTTP/2 stops flushing) and never flush. */
function blockedCall(): EventEmitter & { write: () => boolean } {
  return Object.assign(new EventEmitter(), { write: () => false });
}

describe('BackpressureWriter stall guard', () => {
  it('calls onStall once when the writer stays blocked past the timeout', async () => {
    let stalls = 0;
    const writer = new BackpressureWriter(blockedCall(), 16, { stallTimeoutMs: 50, onStall: () => stalls++ });
    writer.write('frame');
    writer.write('frame');
    expect(writer.writable).toBe(false);
    await waitFor(() => stalls === 1, { what: 'the stall' });
    writer.close();
  });

  it('does not fire when the stream drains in time, nor after close', async () => {
    let stalls = 0;
    const call = blockedCall();
    const writer = new BackpressureWriter(call, 16, { stallTimeoutMs: 50, onStall: () => stalls++ });
    writer.write('frame');
    call.emit('drain');
    expect(writer.writable).toBe(true);
    const closed = new BackpressureWriter(blockedCall(), 16, { stallTimeoutMs: 50, onStall: () => stalls++ });
    closed.write('frame');
    closed.close();
    // A third writer that does stall marks the time by which the other two would have fired.
    let marker = 0;
    const third = new BackpressureWriter(blockedCall(), 16, { stallTimeoutMs: 60, onStall: () => marker++ });
    third.write('frame');
    await waitFor(() => marker === 1, { what: 'the marker stall' });
    expect(stalls).toBe(0);
    writer.close();
    third.close();
  });
});
