/**
 * The direct encoders write exactly the bytes of `JSON.stringify(X.toJSON(msg))`: a table of
 * shapes, random messages (fast-check), and a guard that the messages they encode still have
 * the fields they know.
 */
import fc from 'fast-check';
import {
  Artifact,
  encodeArtifactJson,
  encodeMessageJson,
  encodeSendMessageResponseJson,
  encodeStreamResponseJson,
  encodeTaskJson,
  Message,
  PROTO_SCHEMA,
  Role,
  SendMessageResponse,
  StreamResponse,
  Task,
  TaskState,
} from '@a2a-polyglot/model';

const TRICKY_STRINGS = [
  '',
  'plain',
  'quote " inside',
  'back\\slash',
  'line\nbreak\ttab\r',
  '\u0000\u001f\u007f',
  'héllo wörld ✓',
  '日本語',
  '😀 emoji',
  'lone \ud800 high',
  'lone \udc00 low',
  '\u2028\u2029',
  '</script>',
];
const STRUCT_VALUES: Record<string, unknown>[] = [
  {},
  { k: 'v' },
  { n: 1, f: 1.5, neg: -0, big: 1e21, small: 1e-7, t: true, f2: false, nil: null },
  { nested: { list: [1, 'two', [3], { four: 4 }], empty: [] }, 'key "quoted"': 'é\n' },
  { '': 'empty key', ü: ['\ud83d'] },
];

function part(i: number) {
  const text = TRICKY_STRINGS[i % TRICKY_STRINGS.length] ?? '';
  const contents = [
    { $case: 'text' as const, value: text },
    { $case: 'raw' as const, value: new Uint8Array([0, 1, 2, 0xfe, 0xff].slice(0, i % 6)) },
    { $case: 'url' as const, value: `https://example.com/${text}` },
    { $case: 'data' as const, value: STRUCT_VALUES[i % STRUCT_VALUES.length] },
    { $case: 'data' as const, value: [1, 'x', null] },
    { $case: 'data' as const, value: 'just a string' },
    { $case: 'data' as const, value: 0 },
    { $case: 'data' as const, value: null },
    undefined,
  ];
  return {
    content: contents[i % contents.length],
    metadata: i % 3 === 0 ? STRUCT_VALUES[i % STRUCT_VALUES.length] : undefined,
    filename: i % 4 === 1 ? `file ${text}.bin` : '',
    mediaType: i % 5 === 2 ? 'application/octet-stream' : '',
  };
}

function message(i: number): Message {
  return Message.fromPartial({
    messageId: i % 7 === 6 ? '' : `m-${i}`,
    contextId: TRICKY_STRINGS[i % TRICKY_STRINGS.length],
    taskId: i % 2 ? `t-${i}` : '',
    role: [Role.ROLE_UNSPECIFIED, Role.ROLE_USER, Role.ROLE_AGENT, 99 as Role][i % 4],
    parts: Array.from({ length: i % 4 }, (_, j) => part(i + j)),
    metadata: i % 2 ? STRUCT_VALUES[i % STRUCT_VALUES.length] : undefined,
    extensions: i % 3 === 2 ? ['https://example.com/ext', 'é'] : [],
    referenceTaskIds: i % 5 === 4 ? ['a', 'b"c'] : [],
  });
}

function artifact(i: number): Artifact {
  return Artifact.fromPartial({
    artifactId: i % 6 === 5 ? '' : `a-${i}`,
    name: i % 2 ? 'result' : '',
    description: i % 3 ? TRICKY_STRINGS[i % TRICKY_STRINGS.length] : '',
    parts: Array.from({ length: i % 5 }, (_, j) => part(i * 3 + j)),
    metadata: i % 4 === 1 ? STRUCT_VALUES[i % STRUCT_VALUES.length] : undefined,
    extensions: i % 3 === 1 ? ['https://example.com/ext'] : [],
  });
}

const STATES = [0, ...Object.values(TaskState).filter((v): v is number => typeof v === 'number' && v > 0), 123];

function status(i: number) {
  return {
    state: STATES[i % STATES.length] as TaskState,
    message: i % 3 === 1 ? message(i) : undefined,
    timestamp: i % 2 ? '2026-01-02T03:04:05.678Z' : undefined,
  };
}

function task(i: number): Task {
  return Task.fromPartial({
    id: i % 9 === 8 ? '' : `task-${i}`,
    contextId: i % 4 ? `ctx-${i}` : '',
    status: i % 5 === 4 ? undefined : status(i),
    artifacts: Array.from({ length: i % 3 }, (_, j) => artifact(i + j)),
    history: Array.from({ length: i % 4 }, (_, j) => message(i + j)),
    metadata: i % 3 === 0 ? STRUCT_VALUES[i % STRUCT_VALUES.length] : undefined,
    generation: i % 2 ? String(i + 1) : undefined,
  });
}

/** Every payload kind, with defaults, unknown enums and tricky text spread over the indexes. */
function streamResponses(): StreamResponse[] {
  const out: StreamResponse[] = [StreamResponse.fromPartial({})];
  for (let i = 0; i < 40; i++) {
    out.push(StreamResponse.fromPartial({ payload: { $case: 'task', value: task(i) } }));
    out.push(StreamResponse.fromPartial({ payload: { $case: 'message', value: message(i) } }));
    out.push(
      StreamResponse.fromPartial({
        payload: {
          $case: 'statusUpdate',
          value: {
            taskId: i % 3 ? `t-${i}` : '',
            contextId: `c-${i}`,
            status: i % 4 === 3 ? undefined : status(i),
            metadata: i % 2 ? STRUCT_VALUES[i % 5] : undefined,
            generation: i % 3 === 1 ? String(i) : undefined,
          },
        },
      }),
    );
    out.push(
      StreamResponse.fromPartial({
        payload: {
          $case: 'artifactUpdate',
          value: {
            taskId: `t-${i}`,
            contextId: i % 5 ? `c-${i}` : '',
            artifact: i % 6 === 5 ? undefined : artifact(i),
            append: i % 2 === 1,
            lastChunk: i % 3 === 2,
            metadata: i % 4 === 0 ? STRUCT_VALUES[i % 5] : undefined,
            generation: i % 2 === 0 ? String(i + 7) : undefined,
          },
        },
      }),
    );
  }
  return out;
}

const viaToJson = (event: StreamResponse) => JSON.stringify(StreamResponse.toJSON(event));

describe('direct ProtoJSON encoders', () => {
  it('write the bytes of JSON.stringify(StreamResponse.toJSON(event)) for every shape of the table', () => {
    const events = streamResponses();
    expect(events.length).toBeGreaterThan(150);
    for (const event of events) expect(encodeStreamResponseJson(event)).toBe(viaToJson(event));
  });

  it('write the bytes of the generated path for SendMessageResponse, Task, Message and Artifact', () => {
    expect(encodeSendMessageResponseJson(SendMessageResponse.fromPartial({}))).toBe('{}');
    for (let i = 0; i < 40; i++) {
      for (const response of [
        SendMessageResponse.fromPartial({ payload: { $case: 'task', value: task(i) } }),
        SendMessageResponse.fromPartial({ payload: { $case: 'message', value: message(i) } }),
      ]) {
        expect(encodeSendMessageResponseJson(response)).toBe(JSON.stringify(SendMessageResponse.toJSON(response)));
      }
      expect(encodeTaskJson(task(i))).toBe(JSON.stringify(Task.toJSON(task(i))));
      expect(encodeMessageJson(message(i))).toBe(JSON.stringify(Message.toJSON(message(i))));
      expect(encodeArtifactJson(artifact(i))).toBe(JSON.stringify(Artifact.toJSON(artifact(i))));
    }
  });

  it('drop members JSON.stringify drops and quote what it quotes when a value breaks the static types', () => {
    const loose = Message.fromPartial({ messageId: 'm', parts: [{ content: { $case: 'data', value: undefined } }] });
    (loose as unknown as Record<string, unknown>).contextId = undefined;
    (loose as unknown as Record<string, unknown>).taskId = 42;
    (loose as unknown as Record<string, unknown>).metadata = { when: new Date(0), skip: undefined, fn: () => 1 };
    expect(encodeMessageJson(loose)).toBe(JSON.stringify(Message.toJSON(loose)));
  });

  it('agree with the generated path on random messages', () => {
    // Any UTF-16 code unit (lone surrogates too), with what JSON escapes made frequent.
    const codeUnit = fc.oneof(
      fc.constantFrom('"', '\\', '\n', '\u0001', '\ud800', '\udfff', 'é', 'a'),
      fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
    );
    const text = fc.string({ unit: codeUnit, maxLength: 12 });
    const json = fc.jsonValue({ maxDepth: 3 });
    const generation = fc.option(
      fc.bigInt({ min: 1n, max: 2n ** 63n - 1n }).map((n) => n.toString()),
      { nil: undefined },
    );
    const struct = fc.option(fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 4 }), { nil: undefined });
    const partArb = fc.record({
      content: fc.option(
        fc.oneof(
          fc.record({ $case: fc.constant('text' as const), value: text }),
          fc.record({ $case: fc.constant('raw' as const), value: fc.uint8Array({ maxLength: 10 }) }),
          fc.record({ $case: fc.constant('url' as const), value: text }),
          fc.record({ $case: fc.constant('data' as const), value: json }),
        ),
        { nil: undefined },
      ),
      metadata: struct,
      filename: text,
      mediaType: text,
    });
    const messageArb = fc.record({
      messageId: text,
      contextId: text,
      taskId: text,
      role: fc.integer({ min: 0, max: 3 }),
      parts: fc.array(partArb, { maxLength: 3 }),
      metadata: struct,
      extensions: fc.array(text, { maxLength: 2 }),
      referenceTaskIds: fc.array(text, { maxLength: 2 }),
    });
    const artifactArb = fc.record({
      artifactId: text,
      name: text,
      description: text,
      parts: fc.array(partArb, { maxLength: 3 }),
      metadata: struct,
      extensions: fc.array(text, { maxLength: 2 }),
    });
    const statusArb = fc.record({
      state: fc.integer({ min: 0, max: 9 }),
      message: fc.option(messageArb, { nil: undefined }),
      timestamp: fc.option(text, { nil: undefined }),
    });
    const taskArb = fc.record({
      id: text,
      contextId: text,
      status: fc.option(statusArb, { nil: undefined }),
      artifacts: fc.array(artifactArb, { maxLength: 2 }),
      history: fc.array(messageArb, { maxLength: 2 }),
      metadata: struct,
      generation,
    });
    const eventArb = fc.oneof(
      fc.constant(undefined),
      fc.record({ $case: fc.constant('task' as const), value: taskArb }),
      fc.record({ $case: fc.constant('message' as const), value: messageArb }),
      fc.record({
        $case: fc.constant('statusUpdate' as const),
        value: fc.record({ taskId: text, contextId: text, status: fc.option(statusArb, { nil: undefined }), metadata: struct, generation }),
      }),
      fc.record({
        $case: fc.constant('artifactUpdate' as const),
        value: fc.record({
          taskId: text,
          contextId: text,
          artifact: fc.option(artifactArb, { nil: undefined }),
          append: fc.boolean(),
          lastChunk: fc.boolean(),
          metadata: struct,
          generation,
        }),
      }),
    );
    fc.assert(
      fc.property(eventArb, (payload) => {
        const event = StreamResponse.fromPartial({ payload } as Parameters<typeof StreamResponse.fromPartial>[0]);
        expect(encodeStreamResponseJson(event)).toBe(viaToJson(event));
        if (payload?.$case === 'task' || payload?.$case === 'message') {
          const response = SendMessageResponse.fromPartial({ payload } as Parameters<typeof SendMessageResponse.fromPartial>[0]);
          expect(encodeSendMessageResponseJson(response)).toBe(JSON.stringify(SendMessageResponse.toJSON(response)));
        }
      }),
      { numRuns: 500 },
    );
  });

  it('know every field of the messages they encode (a proto change fails here until direct-json.ts follows)', () => {
    const known: Record<string, string[]> = {
      'lf.a2a.v1.StreamResponse': ['task', 'message', 'statusUpdate', 'artifactUpdate'],
      'lf.a2a.v1.SendMessageResponse': ['task', 'message'],
      'lf.a2a.v1.Task': ['id', 'contextId', 'status', 'artifacts', 'history', 'metadata', 'generation'],
      'lf.a2a.v1.TaskStatus': ['state', 'message', 'timestamp'],
      'lf.a2a.v1.Message': ['messageId', 'contextId', 'taskId', 'role', 'parts', 'metadata', 'extensions', 'referenceTaskIds'],
      'lf.a2a.v1.Part': ['text', 'raw', 'url', 'data', 'metadata', 'filename', 'mediaType'],
      'lf.a2a.v1.Artifact': ['artifactId', 'name', 'description', 'parts', 'metadata', 'extensions'],
      'lf.a2a.v1.TaskStatusUpdateEvent': ['taskId', 'contextId', 'status', 'metadata', 'generation'],
      'lf.a2a.v1.TaskArtifactUpdateEvent': ['taskId', 'contextId', 'artifact', 'append', 'lastChunk', 'metadata', 'generation'],
    };
    for (const [name, fields] of Object.entries(known)) expect([name, PROTO_SCHEMA.messages[name]?.map((f) => f.json)]).toEqual([name, fields]);
  });
});
