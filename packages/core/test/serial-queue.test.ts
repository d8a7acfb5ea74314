import { SerialQueue } from '../src/serial-queue.js';

describe('SerialQueue', () => {
  it('runs a step at once when idle, and the next ones in order behind an asynchronous one', async () => {
    const errors: unknown[] = [];
    const queue = new SerialQueue((e) => errors.push(e));
    const seen: string[] = [];
    queue.push(() => seen.push('sync 1'));
    expect(seen).toEqual(['sync 1']); // ran in the caller's turn
    expect(queue.busy).toBe(false);
    let release!: () => void;
    queue.push(() => new Promise<void>((r) => (release = () => (seen.push('async'), r()))));
    queue.push(() => seen.push('after async'));
    expect(queue.busy).toBe(true);
    expect(seen).toEqual(['sync 1']);
    release();
    await queue.idle();
    expect(seen).toEqual(['sync 1', 'async', 'after async']);
    expect(queue.busy).toBe(false);
    expect(errors).toEqual([]);
  });

  it('runs a step queued from inside a running step right after it, not inside it', async () => {
    const queue = new SerialQueue(() => undefined);
    const seen: string[] = [];
    queue.push(() => {
      seen.push('outer start');
      queue.push(() => seen.push('inner'));
      seen.push('outer end');
    });
    expect(seen).toEqual(['outer start', 'outer end', 'inner']);
    // The same when the outer step turns out to be asynchronous: the inner one waits for it.
    const order: string[] = [];
    queue.push(() => {
      queue.push(() => order.push('inner'));
      return Promise.resolve().then(() => order.push('outer done'));
    });
    await queue.idle();
    expect(order).toEqual(['outer done', 'inner']);
  });

  it('hands failing steps to onError and goes on with the next', async () => {
    const errors: unknown[] = [];
    const queue = new SerialQueue((e) => errors.push(e));
    const seen: string[] = [];
    queue.push(() => {
      throw new Error('sync boom');
    });
    queue.push(() => Promise.reject(new Error('async boom')));
    queue.push(() => seen.push('still running'));
    await queue.idle();
    expect(errors.map((e) => (e as Error).message)).toEqual(['sync boom', 'async boom']);
    expect(seen).toEqual(['still running']);
  });

  it('calls a step with the argument it was queued with, on every path (at once, backlog, behind an async step)', async () => {
    const queue = new SerialQueue(() => undefined);
    const seen: number[] = [];
    const record = (n: number) => {
      seen.push(n);
    };
    queue.push(record, 1);
    queue.push(() => {
      queue.push(record, 2); // backlog: runs right after this step
      seen.push(0);
    });
    let release!: () => void;
    queue.push(() => {
      queue.push(record, 3); // backlog of a step that turns asynchronous
      return new Promise<void>((r) => (release = r));
    });
    queue.push(record, 4); // behind the pending step
    expect(seen).toEqual([1, 0, 2]);
    release();
    await queue.idle();
    expect(seen).toEqual([1, 0, 2, 3, 4]);
  });
});
