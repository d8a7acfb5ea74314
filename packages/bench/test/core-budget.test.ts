/**
 * The core budget's cases do the work they are named for (checked on a real RequestHandler),
 * and the report judges the executor's figures against each budget. Nothing here asserts a speed.
 */
import { callContext, InMemoryTaskStore, RequestHandler, silentLogger } from '@a2a-polyglot/core';
import { AgentCard, ListTasksRequest, Role, SendMessageRequest, TaskState } from '@a2a-polyglot/model';
import {
  agentModeText,
  CORE_CASES,
  coreGoals,
  createOursBenchAgent,
  ENCODE_CASES,
  ENCODERS,
  encodeSamples,
  measureCase,
  renderCore,
  STREAM_CHUNKS,
  type CoreBudgetResult,
} from '@a2a-polyglot/bench';

function handler(): RequestHandler {
  return new RequestHandler({
    card: AgentCard.fromPartial({ name: 'core budget test', capabilities: { streaming: true } }),
    executor: createOursBenchAgent(),
    taskStore: new InMemoryTaskStore(),
    logger: silentLogger,
  });
}

const ctx = callContext('IN-PROCESS', { 'a2a-version': '1.0' });

describe('core budget cases', () => {
  it('the task case completes a task with its one artifact, the message case answers a message', async () => {
    const h = handler();
    const task = await h.sendMessage(
      SendMessageRequest.fromPartial({
        message: { messageId: 't', role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: agentModeText({ kind: 'task' }) } }] },
      }),
      ctx,
    );
    expect(task.payload?.$case).toBe('task');
    if (task.payload?.$case === 'task') {
      expect(task.payload.value.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
      expect(task.payload.value.artifacts).toHaveLength(1);
    }
    const message = await h.sendMessage(
      SendMessageRequest.fromPartial({
        message: { messageId: 'm', role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: agentModeText({ kind: 'message' }) } }] },
      }),
      ctx,
    );
    expect(message.payload?.$case).toBe('message');
  });

  it('every case runs to its end, and the stream case streams its chunks plus three events', async () => {
    const h = handler();
    for (const c of CORE_CASES) await c.run(h, ctx, 1);
    const streamCase = CORE_CASES.find((c) => c.id === 'stream-event')!;
    expect(streamCase.unitsPerCall).toBe(STREAM_CHUNKS + 3);
    const list = await h.listTasks(ListTasksRequest.fromPartial({ pageSize: 100, includeArtifacts: true }), ctx);
    const streamed = list.tasks.find((t) => t.artifacts[0]?.parts.length === STREAM_CHUNKS);
    expect(streamed?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  });

  it('the encode cases write the same text length with either encoder, over a whole stream and a Task answer', async () => {
    const samples = await encodeSamples(handler(), ctx);
    expect(samples.events).toHaveLength(STREAM_CHUNKS + 3);
    expect(samples.taskAnswer.payload?.$case).toBe('task');
    for (const c of ENCODE_CASES) {
      const [generated, direct] = ENCODERS.map(([encoder]) => c.run(samples, encoder));
      expect(generated).toBeGreaterThan(0);
      expect(direct).toBe(generated);
    }
  });

  it('measureCase reports one figure per repetition, per unit', async () => {
    let calls = 0;
    const figures = await measureCase(async () => void calls++, { calls: 10, warmupCalls: 5, reps: 3, unitsPerCall: 2 });
    expect(figures.perUnitUs).toHaveLength(3);
    expect(calls).toBe(35);
  });
});

describe('core budget report', () => {
  const result: CoreBudgetResult = {
    calls: 1000,
    rows: [
      { handler: 'core', caseId: 'task', perUnitUs: [15, 16, 17], calls: 1000 },
      { handler: 'executor', caseId: 'task', perUnitUs: [18, 19, 25], calls: 1000 },
      { handler: 'executor', caseId: 'message', perUnitUs: [9, 10, 11], calls: 1000 },
    ],
    encode: [
      { encoder: 'generated', caseId: 'event', perUnitUs: [1, 1.2, 1.1], calls: 100 },
      { encoder: 'direct', caseId: 'event', perUnitUs: [0.5, 0.6, 0.55], calls: 100 },
    ],
  };

  it('judges the executor handler on the median of its repetitions', () => {
    const goals = coreGoals(result);
    expect(goals.find((g) => g.goal.includes('→ Task'))).toMatchObject({ measured: '19.0 [18.0-25.0]', threshold: '≤ 20', pass: true });
    expect(goals.find((g) => g.goal.includes('→ Message'))).toMatchObject({ measured: '10.0 [9.00-11.0]', threshold: '≤ 8', pass: false });
    expect(goals.find((g) => g.goal.includes('per streamed event'))).toMatchObject({ measured: 'not measured', pass: undefined });
  });

  it('renders both handlers side by side', () => {
    const md = renderCore(result).join('\n');
    expect(md).toContain('## Core budget');
    expect(md).toMatch(/\| SendMessage → Task \(4 events\) \| ≤ 20 \| 16\.0 \[15\.0-17\.0\] \| 19\.0 \[18\.0-25\.0\] \|/);
  });

  it('renders the encode cases, generated path against direct encoders', () => {
    const md = renderCore(result).join('\n');
    expect(md).toMatch(/\| encode one stream event [^|]*\| 1\.10 \[1\.00-1\.20\] \| 0\.550 \[0\.500-0\.600\] \| 0\.500 \|/);
    expect(md).toMatch(/\| encode the SendMessage → Task answer \| - \| - \| - \|/);
  });
});
