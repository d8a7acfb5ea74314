import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { newId } from '../src/util.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

describe('newId', () => {
  it('gives distinct v4 UUIDs', () => {
    const a = newId();
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(newId()).not.toBe(a);
  });

  it('keeps each id as one flat string (the platform builds a rope of about 480 bytes; flat it is about 60)', () => {
    const ids: string[] = [];
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 20_000; i++) ids.push(newId());
    gc();
    const perId = (process.memoryUsage().heapUsed - before) / ids.length;
    expect(ids).toHaveLength(20_000);
    expect(perId).toBeLessThan(200);
  });
});
