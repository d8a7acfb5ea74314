import { StreamResponse, TaskState, type Artifact } from '@a2a-polyglot/model';
import { estimateBytes } from '../src/estimate-size.js';
import { estimateEventBytes } from '../src/event-size.js';
import { artifactEvent, dataPart, statusEvent, textPart } from '../src/task-events.js';
import { eventWithGeneration } from '../src/task-generation.js';
import type { Task } from '@a2a-polyglot/model';

const task = { id: 'task-1', contextId: 'ctx-1' } as Task;

/** Nested `depth` levels deep: below the generic walk's recursion limit it switches to its explicit stack. */
function nested(depth: number): unknown {
  let value: unknown = { leaf: 'x'.repeat(100) };
  for (let i = 0; i < depth; i++) value = { next: value, list: [i, 'n'] };
  return value;
}

function update(artifact: Artifact | undefined, metadata?: Record<string, unknown>): StreamResponse {
  return { payload: { $case: 'artifactUpdate', value: { taskId: 't', contextId: 'c', artifact, append: true, lastChunk: false, metadata } } };
}

describe('estimateEventBytes', () => {
  const shapes: Array<[string, StreamResponse]> = [
    ['a text chunk', artifactEvent(task, { name: 'result', text: 'chunk 1' })],
    ['an appended chunk with metadata', artifactEvent(task, { artifactId: 'a', text: 'more', append: true, lastChunk: true, metadata: { k: ['v', 1] } })],
    [
      'several parts of every kind',
      artifactEvent(task, {
        parts: [
          textPart('é'.repeat(50)),
          { content: { $case: 'raw', value: new Uint8Array(300) }, metadata: { m: true }, filename: 'f.bin', mediaType: 'application/octet-stream' },
          { content: { $case: 'url', value: 'https://example.com/x' }, metadata: undefined, filename: '', mediaType: 'text/plain' },
          { content: undefined, metadata: undefined, filename: '', mediaType: '' },
        ],
        data: { rows: [{ a: 1 }, { b: null }] },
      }),
    ],
    ['data nested past the recursion limit', artifactEvent(task, { data: nested(80), metadata: { deep: nested(70) } })],
    ['no artifact', update(undefined)],
    [
      'an artifact decoded from JSON',
      StreamResponse.fromJSON({
        artifactUpdate: {
          taskId: 't',
          contextId: 'c',
          artifact: { artifactId: 'a', parts: [{ text: 'hi' }, { data: { x: 1 } }], extensions: ['urn:x'] },
          append: true,
        },
      }),
    ],
    [
      'an update with metadata and extensions',
      update({ artifactId: 'a', name: 'n', description: 'd', parts: [dataPart([1, 2])], metadata: { z: 'z' }, extensions: ['urn:a', 'urn:b'] }, { u: 1 }),
    ],
  ];

  it.each(shapes)('equals the generic walk on %s', (_name, event) => {
    expect(estimateEventBytes(event)).toBe(estimateBytes(event));
  });

  it('equals the generic walk on a 1.1 copy carrying a generation', () => {
    const event = eventWithGeneration({ seq: 7, event: artifactEvent(task, { text: 'g' }) }).event;
    expect(estimateEventBytes(event)).toBe(estimateBytes(event));
    expect(estimateEventBytes(event)).toBeGreaterThan(
      estimateEventBytes(
        artifactEvent(task, { artifactId: event.payload?.$case === 'artifactUpdate' ? event.payload.value.artifact?.artifactId : '', text: 'g' }),
      ),
    );
  });

  it('counts a large chunk by its length', () => {
    const small = estimateEventBytes(artifactEvent(task, { artifactId: 'a', text: 'x' }));
    const large = estimateEventBytes(artifactEvent(task, { artifactId: 'a', text: 'x'.repeat(100_001) }));
    expect(large - small).toBe(100_000);
  });

  it('walks other events generically', () => {
    const event = statusEvent(task, TaskState.TASK_STATE_WORKING, undefined, { a: 'b' });
    expect(estimateEventBytes(event)).toBe(estimateBytes(event));
  });
});
