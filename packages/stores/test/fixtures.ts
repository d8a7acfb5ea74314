import { Role, TaskState, type Task, type TaskPushNotificationConfig } from '@a2a-polyglot/model';
import type { StoredTask } from '@a2a-polyglot/core';

/** A task with a bit of everything the codec must round-trip. */
export function sampleTask(id: string, timestamp: string, options: { state?: TaskState; contextId?: string } = {}): Task {
  return {
    id,
    contextId: options.contextId ?? 'ctx-1',
    status: {
      state: options.state ?? TaskState.TASK_STATE_COMPLETED,
      message: {
        messageId: `m-${id}`,
        contextId: options.contextId ?? 'ctx-1',
        taskId: id,
        role: Role.ROLE_AGENT,
        parts: [{ content: { $case: 'text', value: 'done ✓' }, metadata: undefined, filename: '', mediaType: '' }],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      timestamp,
    },
    artifacts: [
      {
        artifactId: 'a1',
        name: 'answer',
        description: '',
        parts: [
          { content: { $case: 'text', value: 'hello ' }, metadata: undefined, filename: '', mediaType: '' },
          {
            content: { $case: 'data', value: { n: 1, list: [true, null, 'x'], nested: { deep: 2.5 } } },
            metadata: { k: 'v' },
            filename: '',
            mediaType: 'application/json',
          },
        ],
        metadata: undefined,
        extensions: [],
      },
    ],
    history: [
      {
        messageId: 'u1',
        contextId: options.contextId ?? 'ctx-1',
        taskId: id,
        role: Role.ROLE_USER,
        parts: [{ content: { $case: 'text', value: 'hi' }, metadata: undefined, filename: '', mediaType: '' }],
        metadata: { trace: 'abc' },
        extensions: [],
        referenceTaskIds: [],
      },
    ],
    metadata: { source: 'test', count: 3 },
  };
}

export function stored(id: string, timestamp: string, extra: Partial<StoredTask> & { state?: TaskState; contextId?: string } = {}): StoredTask {
  const { state, contextId, ...rest } = extra;
  return { tenant: '', version: 1, task: sampleTask(id, timestamp, { state, contextId }), ...rest };
}

export function pushConfig(taskId: string, id: string, url = 'https://example.com/hook'): TaskPushNotificationConfig {
  return { tenant: '', id, taskId, url, token: `tok-${id}`, authentication: { scheme: 'Bearer', credentials: 'secret' } };
}
