import {
  crossBindingDiffs,
  diffJson,
  inProcessBinding,
  loadScenarios,
  matchExpected,
  Normalizer,
  runScenario,
  type Binding,
  type Driver,
  type DriverStream,
} from '../src/index.js';

const scenario = (name: string) => loadScenarios().find((s) => s.name === name)!;

/** A binding that behaves like in-process except for one deliberate defect. */
function mutant(name: string, mutate: (driver: Driver) => Partial<Driver>): Binding {
  return {
    name,
    async start(handler) {
      const inner = await inProcessBinding.start(handler);
      return Object.assign(Object.create(inner) as Driver, { binding: name }, mutate(inner));
    },
  };
}

describe('matchExpected / diffJson', () => {
  it('matches partially, with exact array lengths and $absent / $any markers', () => {
    expect(matchExpected({ a: 1, b: [{ c: 2 }] }, { a: 1, x: 9, b: [{ c: 2, d: 3 }] })).toEqual([]);
    expect(matchExpected({ b: [{ c: 2 }] }, { b: [{ c: 2 }, { c: 3 }] })).toHaveLength(1);
    expect(matchExpected({ a: '$absent', b: '$any' }, { b: null })).toEqual([]);
    expect(matchExpected({ a: '$absent' }, { a: 1 })).toEqual(['$.a: expected absent, got 1']);
  });

  it('diffs exactly, ignoring member order', () => {
    expect(diffJson({ a: 1, b: { c: [1, 2] } }, { b: { c: [1, 2] }, a: 1 })).toEqual([]);
    expect(diffJson({ a: 1 }, { a: 1, b: 2 })).toEqual(['$.b: absent vs 2']);
  });
});

describe('Normalizer', () => {
  it('numbers generated ids by kind and first appearance, whatever the key order', () => {
    const task = '0b4a6c1e-1111-4222-8333-944445555666';
    const ctx = '0b4a6c1e-1111-4222-8333-944445555777';
    const a = new Normalizer().normalize({ task: { id: task, contextId: ctx, status: { timestamp: '2026-01-01T00:00:00Z' } } });
    const b = new Normalizer().normalize({ task: { status: { timestamp: '2027-01-01T00:00:00Z' }, contextId: ctx, id: task } });
    expect(a).toEqual({ task: { contextId: '<ctx1>', id: '<task1>', status: { timestamp: '<ts>' } } });
    expect(diffJson(a, b)).toEqual([]);
  });
});

describe('runner and comparator catch a misbehaving binding', () => {
  it('flags a binding that drops the last event of every stream', async () => {
    const dropsLast = mutant('drops-last', (inner) => ({
      async open(op, req, opts) {
        const opened = await inner.open(op, req, opts);
        if (!opened.ok) return opened;
        const stream: DriverStream = {
          close: () => opened.stream.close(),
          async *[Symbol.asyncIterator]() {
            const all = [];
            for await (const item of opened.stream) all.push(item);
            yield* all.slice(0, -1);
          },
        };
        return { ok: true, stream };
      },
    }));
    const run = await runScenario(scenario('streaming/chunk-order'), dropsLast);
    expect(run.failures.join('\n')).toMatch(/events: expected 7 items, got 6/);
  });

  it('flags a binding that reports the wrong error code, and the cross-binding check sees it too', async () => {
    const wrongCode = mutant('wrong-code', (inner) => ({
      async call(op, req, opts) {
        const res = await inner.call(op, req, opts);
        return res.ok ? res : { ok: false, error: { code: 'INVALID_PARAMS', message: 'mutated' } };
      },
    }));
    const s = scenario('errors/unknown-task');
    const runs = [await runScenario(s, inProcessBinding), await runScenario(s, wrongCode)];
    expect(runs[0]!.failures).toEqual([]);
    expect(runs[1]!.failures.join('\n')).toMatch(/expected error TASK_NOT_FOUND, got INVALID_PARAMS/);
    expect(crossBindingDiffs(runs).join('\n')).toMatch(/errors\/unknown-task: in-process vs wrong-code: step 0\.error: "TASK_NOT_FOUND" vs "INVALID_PARAMS"/);
  });

  it('flags a binding whose results differ only in a detail the expectation does not mention', async () => {
    const renames = mutant('renames', (inner) => ({
      async call(op, req, opts) {
        const res = await inner.call(op, req, opts);
        if (res.ok && op === 'GetTask') (res.result as { status: { state: string } }).status.state = 'TASK_STATE_WORKING';
        return res;
      },
    }));
    const s = scenario('message/history-length');
    const runs = [await runScenario(s, inProcessBinding), await runScenario(s, renames)];
    expect(crossBindingDiffs(runs).some((d) => d.includes('status.state'))).toBe(true);
  });
});
