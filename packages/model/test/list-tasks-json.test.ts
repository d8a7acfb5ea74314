import { ListTasksResponse, Task, TaskState, listTasksResponseToJson } from '@a2a-polyglot/model';

const taskWith = (id: string, artifacts: boolean) =>
  Task.fromPartial({
    id,
    contextId: 'ctx',
    status: { state: TaskState.TASK_STATE_COMPLETED },
    artifacts: artifacts ? [{ artifactId: 'a1', parts: [{ content: { $case: 'text', value: 'out' } }] }] : [],
    history: [{ messageId: 'm', parts: [{ content: { $case: 'text', value: 'in' } }] }],
  });

describe('listTasksResponseToJson', () => {
  it('always emits nextPageToken, pageSize, totalSize and tasks, even when empty / zero', () => {
    const empty = ListTasksResponse.fromPartial({});
    expect(ListTasksResponse.toJSON(empty)).toEqual({}); // what plain ProtoJSON would send
    expect(listTasksResponseToJson(empty, false)).toEqual({ tasks: [], nextPageToken: '', pageSize: 0, totalSize: 0 });
    expect(JSON.stringify(listTasksResponseToJson(empty, true))).toBe('{"tasks":[],"nextPageToken":"","pageSize":0,"totalSize":0}');
  });

  it('leaves artifacts out of every task unless includeArtifacts', () => {
    const resp = ListTasksResponse.fromPartial({ tasks: [taskWith('t1', true), taskWith('t2', false)], nextPageToken: 'next', pageSize: 2, totalSize: 7 });
    const json = listTasksResponseToJson(resp, false);
    expect(json.nextPageToken).toBe('next');
    expect(json.pageSize).toBe(2);
    expect(json.totalSize).toBe(7);
    for (const task of json.tasks) expect(task).not.toHaveProperty('artifacts');
    expect(json.tasks[0]).toHaveProperty('history'); // other fields untouched
  });

  it('includes artifacts when requested, as [] for a task that has none, in field order', () => {
    const resp = ListTasksResponse.fromPartial({ tasks: [taskWith('t1', true), taskWith('t2', false)], pageSize: 2, totalSize: 2 });
    const json = listTasksResponseToJson(resp, true);
    expect(json.tasks[0]!.artifacts).toEqual([{ artifactId: 'a1', parts: [{ text: 'out' }] }]);
    expect(json.tasks[1]!.artifacts).toEqual([]);
    expect(Object.keys(json.tasks[1]!)).toEqual(['id', 'contextId', 'status', 'artifacts', 'history']);
  });

  it('does not mutate the response', () => {
    const resp = ListTasksResponse.fromPartial({ tasks: [taskWith('t1', true)] });
    listTasksResponseToJson(resp, false);
    expect(resp.tasks[0]!.artifacts).toHaveLength(1);
  });
});
