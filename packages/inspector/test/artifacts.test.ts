import type { Artifact, Part, Task, TaskArtifactUpdateEvent } from '@a2a-polyglot/model';
import { ArtifactAssembler } from '../web/artifacts.js';

const text = (value: string): Part => ({ content: { $case: 'text', value }, metadata: undefined, filename: '', mediaType: '' });
const artifact = (artifactId: string, parts: Part[], name = 'echo'): Artifact => ({
  artifactId,
  name,
  description: '',
  parts,
  metadata: undefined,
  extensions: [],
});
const update = (a: Artifact, append: boolean, lastChunk: boolean): TaskArtifactUpdateEvent => ({
  taskId: 't',
  contextId: 'c',
  artifact: a,
  append,
  lastChunk,
  metadata: undefined,
});

describe('ArtifactAssembler', () => {
  it('runs appended text on, counts chunks and completes on lastChunk', () => {
    const assembler = new ArtifactAssembler();
    assembler.apply(update(artifact('a', [text('Echo: the ')]), false, false));
    assembler.apply(update(artifact('a', [text('quick brown ')], ''), true, false));
    const done = assembler.apply(update(artifact('a', [text('fox')], ''), true, true))!;
    expect(done).toMatchObject({ name: 'echo', chunks: 3, complete: true });
    expect(done.parts).toEqual([text('Echo: the quick brown fox')]);
  });

  it('a chunk without append replaces the artifact; non-text parts stay parts of their own', () => {
    const assembler = new ArtifactAssembler();
    assembler.apply(update(artifact('a', [text('old')]), false, true));
    const data: Part = { content: { $case: 'data', value: { n: 1 } }, metadata: undefined, filename: '', mediaType: 'application/json' };
    const replaced = assembler.apply(update(artifact('a', [text('new'), data]), false, false))!;
    expect(replaced.parts).toEqual([text('new'), data]);
    assembler.apply(update(artifact('b', [text('second')]), false, true));
    expect(assembler.list().map((a) => a.artifactId)).toEqual(['a', 'b']);
  });

  it('a snapshot keeps what the stream said of an artifact it has seen', () => {
    const assembler = new ArtifactAssembler();
    assembler.apply(update(artifact('a', [text('tick 1')]), false, false));
    assembler.apply(update(artifact('a', [text(' tick 2')]), true, false));
    assembler.snapshot({ artifacts: [artifact('a', [text('tick 1 tick 2')])] } as unknown as Task, false);
    expect(assembler.list()).toEqual([{ artifactId: 'a', name: 'echo', parts: [text('tick 1 tick 2')], chunks: 2, complete: false }]);
  });

  it('a task snapshot replaces everything (complete unless the task still runs)', () => {
    const assembler = new ArtifactAssembler();
    assembler.apply(update(artifact('a', [text('partial')]), false, false));
    const task = { artifacts: [artifact('z', [text('whole')])] } as unknown as Task;
    assembler.snapshot(task, false);
    expect(assembler.list()).toEqual([{ artifactId: 'z', name: 'echo', parts: [text('whole')], chunks: 1, complete: true }]);
  });
});
