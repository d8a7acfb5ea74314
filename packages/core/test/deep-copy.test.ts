import { deepCopy } from '../src/deep-copy.js';

describe('deepCopy', () => {
  it('gives what structuredClone gives for protocol data, sharing nothing', () => {
    const task = {
      id: 't',
      contextId: 'c',
      status: { state: 3, message: undefined, timestamp: '2026-01-01T00:00:00.000Z' },
      artifacts: [{ artifactId: 'a', parts: [{ content: { $case: 'data', value: { n: [1, { deep: null }] } }, metadata: undefined }], extensions: [] }],
      history: [{ messageId: 'm', parts: [{ content: { $case: 'raw', value: new Uint8Array([1, 2, 3]) } }] }],
      metadata: { a: { b: 'c' } },
    };
    const copied = deepCopy(task);
    expect(copied).toStrictEqual(structuredClone(task));
    expect(copied.artifacts[0]!.parts).not.toBe(task.artifacts[0]!.parts);
    expect(copied.history[0]!.parts[0]!.content.value).not.toBe(task.history[0]!.parts[0]!.content.value);
    copied.metadata.a.b = 'changed';
    expect(task.metadata.a.b).toBe('c');
    expect(Object.hasOwn(copied.status, 'message')).toBe(true);
  });

  it('turns a Buffer into a Uint8Array and keeps an own __proto__ key a key', () => {
    const parsed = JSON.parse('{"__proto__": {"x": 1}, "y": 2}');
    const copied = deepCopy({ bytes: Buffer.from('ab'), parsed });
    expect(copied.bytes.constructor).toBe(Uint8Array);
    expect(Array.from(copied.bytes)).toEqual([97, 98]);
    expect(Object.getPrototypeOf(copied.parsed)).toBe(Object.prototype);
    expect(Object.keys(copied.parsed)).toEqual(['__proto__', 'y']);
  });

  it('leaves other objects, cycles and functions to structuredClone', () => {
    const date = new Date(0);
    expect(deepCopy({ date }).date).toEqual(date);
    expect(deepCopy({ date }).date).not.toBe(date);
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic.self = cyclic;
    const copied = deepCopy(cyclic);
    expect(copied.name).toBe('loop');
    expect(() => deepCopy({ f: () => 1 })).toThrow();
  });
});
