import { Message, Role, SendMessageResponse, StreamResponse, Task, TaskState, parseProtoJson, taskStateFromJSON, taskStateToJSON } from '@a2a-polyglot/model';

const PNG_BYTES = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff]);

function fullTask(): Task {
  return Task.fromPartial({
    id: 'task-1',
    contextId: 'ctx-1',
    status: {
      state: TaskState.TASK_STATE_COMPLETED,
      timestamp: '2026-01-02T03:04:05.678Z',
      message: {
        messageId: 'm-status',
        role: Role.ROLE_AGENT,
        taskId: 'task-1',
        contextId: 'ctx-1',
        parts: [{ content: { $case: 'text', value: 'done' } }],
      },
    },
    artifacts: [
      {
        artifactId: 'art-1',
        name: 'result',
        description: 'every part kind',
        parts: [
          { content: { $case: 'text', value: 'hello' }, metadata: { lang: 'en' } },
          { content: { $case: 'raw', value: PNG_BYTES }, filename: 'a.png', mediaType: 'image/png' },
          { content: { $case: 'url', value: 'https://example.com/a.pdf' }, mediaType: 'application/pdf' },
          { content: { $case: 'data', value: { k: 1, nested: { list: [1, 'two', true, null] } } }, mediaType: 'application/json' },
          { content: { $case: 'data', value: [1, 2, 3] } },
          { content: { $case: 'data', value: 'just a string' } },
          { content: { $case: 'data', value: 42 } },
          { content: { $case: 'data', value: false } },
        ],
        metadata: { source: 'test' },
        extensions: ['https://example.com/ext/v1'],
      },
    ],
    history: [
      {
        messageId: 'm-1',
        contextId: 'ctx-1',
        taskId: 'task-1',
        role: Role.ROLE_USER,
        parts: [{ content: { $case: 'text', value: 'hi' } }],
        metadata: { a: 'b' },
        extensions: ['https://example.com/ext/v1'],
        referenceTaskIds: ['task-0'],
      },
    ],
    metadata: { str: 'v', num: 1.5, bool: true, nil: null, obj: { arr: [{ x: 1 }] } },
  });
}

describe('Task round trips', () => {
  it('survives toJSON -> JSON text -> fromJSON unchanged', () => {
    const task = fullTask();
    const wire = JSON.stringify(Task.toJSON(task));
    expect(Task.fromJSON(JSON.parse(wire))).toEqual(task);
    // and through the strict parser too
    expect(parseProtoJson('Task', Task, JSON.parse(wire))).toEqual(task);
  });

  it('survives encode -> decode unchanged', () => {
    const task = fullTask();
    const bytes = Task.encode(task).finish();
    expect(Task.decode(bytes)).toEqual(task);
  });

  it('emits the v1.0 ProtoJSON shapes (flat parts, enum names, base64, camelCase, no kind)', () => {
    const json = Task.toJSON(fullTask()) as any;
    expect(json.status.state).toBe('TASK_STATE_COMPLETED');
    expect(json.status.timestamp).toBe('2026-01-02T03:04:05.678Z');
    expect(json.history[0].role).toBe('ROLE_USER');
    expect(json.history[0].referenceTaskIds).toEqual(['task-0']);
    const parts = json.artifacts[0].parts;
    expect(parts[0]).toEqual({ text: 'hello', metadata: { lang: 'en' } });
    expect(parts[1]).toEqual({ raw: Buffer.from(PNG_BYTES).toString('base64'), filename: 'a.png', mediaType: 'image/png' });
    expect(parts[2]).toEqual({ url: 'https://example.com/a.pdf', mediaType: 'application/pdf' });
    expect(parts[3]).toEqual({ data: { k: 1, nested: { list: [1, 'two', true, null] } }, mediaType: 'application/json' });
    expect(parts[4]).toEqual({ data: [1, 2, 3] });
    expect(JSON.stringify(json)).not.toContain('"kind"');
  });

  it('omits default-valued fields (ProtoJSON)', () => {
    const json = Task.toJSON(Task.fromPartial({ id: 't', status: { state: TaskState.TASK_STATE_WORKING } }));
    expect(json).toEqual({ id: 't', status: { state: 'TASK_STATE_WORKING' } });
  });
});

describe('response wrappers', () => {
  it('SendMessageResponse.toJSON wraps the oneof member: {"task": ...} / {"message": ...}', () => {
    const task = Task.fromPartial({ id: 't', contextId: 'c', status: { state: TaskState.TASK_STATE_SUBMITTED } });
    const withTask = SendMessageResponse.toJSON({ payload: { $case: 'task', value: task } });
    expect(withTask).toEqual({ task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_SUBMITTED' } } });

    const message = Message.fromPartial({ messageId: 'm', role: Role.ROLE_AGENT, parts: [{ content: { $case: 'text', value: 'hi' } }] });
    const withMessage = SendMessageResponse.toJSON({ payload: { $case: 'message', value: message } });
    expect(withMessage).toEqual({ message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hi' }] } });
    expect(Object.keys(withMessage as object)).toEqual(['message']);
  });

  it('StreamResponse uses the statusUpdate / artifactUpdate keys', () => {
    const json = StreamResponse.toJSON(
      StreamResponse.fromPartial({
        payload: {
          $case: 'statusUpdate',
          value: { taskId: 't', contextId: 'c', status: { state: TaskState.TASK_STATE_COMPLETED } },
        },
      }),
    );
    expect(json).toEqual({ statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } } });

    const parsed = parseProtoJson('StreamResponse', StreamResponse, {
      artifact_update: { task_id: 't', context_id: 'c', artifact: { artifact_id: 'a', parts: [{ text: 'x' }] }, last_chunk: true },
    });
    expect(parsed.payload?.$case).toBe('artifactUpdate');
    expect(StreamResponse.toJSON(parsed)).toEqual({
      artifactUpdate: { taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [{ text: 'x' }] }, lastChunk: true },
    });
  });
});

describe('enums', () => {
  it('convert by name and by number', () => {
    expect(taskStateFromJSON('TASK_STATE_INPUT_REQUIRED')).toBe(TaskState.TASK_STATE_INPUT_REQUIRED);
    expect(taskStateFromJSON(8)).toBe(TaskState.TASK_STATE_AUTH_REQUIRED);
    expect(taskStateToJSON(TaskState.TASK_STATE_CANCELED)).toBe('TASK_STATE_CANCELED');
  });
});
