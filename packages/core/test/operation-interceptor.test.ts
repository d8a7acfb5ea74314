import { TaskState, type GetTaskRequest, type SendMessageRequest } from '@a2a-polyglot/model';
import { testAgentCard, userSend } from '@a2a-polyglot/testing';
import {
  A2AError,
  A2AErrorCode,
  agentMessage,
  ApiKeyAuthenticator,
  messageText,
  callContext,
  interceptOperation,
  OPERATIONS,
  RequestHandler,
  singleEventStream,
  type AgentExecutor,
  type CallObserver,
  type OperationInterceptor,
  type StreamOperation,
  type UnaryOperation,
} from '../src/index.js';

const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' });

const echo: AgentExecutor = {
  async execute(run) {
    run.working();
    run.complete();
  },
};

const sendMessage = OPERATIONS.SendMessage as UnaryOperation<SendMessageRequest>;
const sendStreaming = OPERATIONS.SendStreamingMessage as StreamOperation<SendMessageRequest>;
const getTask = OPERATIONS.GetTask as UnaryOperation<GetTaskRequest>;

/** An interceptor that writes `name in/out <operation>` around every call. */
function tracer(name: string, log: string[]): OperationInterceptor {
  return (next) => async (call) => {
    log.push(`${name} in ${call.operation}`);
    try {
      return await next(call);
    } finally {
      log.push(`${name} out ${call.operation}`);
    }
  };
}

describe('operation interceptors', () => {
  it('run around every call the table dispatches, first given outermost, on unary and streaming operations', async () => {
    const log: string[] = [];
    const handler = new RequestHandler({ card: testAgentCard(), executor: echo, interceptors: [tracer('a', log), tracer('b', log)] });
    const answer = await sendMessage.invoke(handler, userSend('hi'), ctx());
    expect(answer.payload?.$case).toBe('task');
    const stream = await sendStreaming.open(handler, userSend('hi'), ctx());
    for await (const _ of stream) {
      // drain
    }
    expect(log).toEqual([
      'a in SendMessage',
      'b in SendMessage',
      'b out SendMessage',
      'a out SendMessage',
      'a in SendStreamingMessage',
      'b in SendStreamingMessage',
      'b out SendStreamingMessage',
      'a out SendStreamingMessage',
    ]);
  });

  it('interceptOperation sees only its operation, may rewrite the request, and passes the others through untouched', async () => {
    const seen: string[] = [];
    const shout = interceptOperation('SendMessage', (call, next) => {
      seen.push(call.operation);
      const message = call.request.message;
      if (!message) return next(call);
      const parts = message.parts.map((p) =>
        p.content?.$case === 'text' ? { ...p, content: { $case: 'text' as const, value: p.content.value.toUpperCase() } } : p,
      );
      return next({ ...call, request: { ...call.request, message: { ...message, parts } } });
    });
    const texts: string[] = [];
    const recording: AgentExecutor = {
      async execute(run) {
        texts.push(messageText(run.message));
        run.complete();
      },
    };
    const handler = new RequestHandler({ card: testAgentCard(), executor: recording, interceptors: [shout] });
    const answer = await sendMessage.invoke(handler, userSend('quiet please'), ctx());
    expect(texts).toEqual(['QUIET PLEASE']);
    const id = answer.payload?.$case === 'task' ? answer.payload.value.id : '';
    const task = await getTask.invoke(handler, { tenant: '', id, historyLength: undefined }, ctx());
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(seen).toEqual(['SendMessage']);
  });

  it('may answer a call itself (the agent never runs), and the observer sees what it answered', async () => {
    const runs: string[] = [];
    const counting: AgentExecutor = {
      async execute(run) {
        runs.push(run.taskId);
        run.complete();
      },
    };
    const outcomes: string[] = [];
    const observer: CallObserver = {
      operationStarted: (operation) => ({ run: (call) => call(), done: (outcome) => outcomes.push(`${operation} ${outcome}`) }),
    };
    const reply = interceptOperation('SendMessage', async () => ({ payload: { $case: 'message', value: agentMessage('answered here', '', 'ctx-1') } }));
    const streamed = interceptOperation('SendStreamingMessage', async () =>
      singleEventStream({ payload: { $case: 'message', value: agentMessage('streamed here', '', 'ctx-1') } }),
    );
    const refused = interceptOperation('GetTask', async () => {
      throw new A2AError(A2AErrorCode.TaskNotFound, 'nothing here');
    });
    const handler = new RequestHandler({ card: testAgentCard(), executor: counting, observer, interceptors: [reply, streamed, refused] });
    const answer = await sendMessage.invoke(handler, userSend('hi'), ctx());
    expect(answer.payload?.$case).toBe('message');
    const frames = [];
    for await (const frame of await sendStreaming.open(handler, userSend('hi'), ctx())) frames.push(frame.event.payload?.$case);
    expect(frames).toEqual(['message']);
    await expect(getTask.invoke(handler, { tenant: '', id: 'x', historyLength: undefined }, ctx())).rejects.toMatchObject({ code: A2AErrorCode.TaskNotFound });
    expect(runs).toEqual([]);
    expect(outcomes).toEqual(['SendMessage ok', 'SendStreamingMessage ok', 'GetTask TASK_NOT_FOUND']);
  });

  it('can run the caller preamble itself: an unauthenticated caller is refused before the interceptor answers', async () => {
    const answered: string[] = [];
    const whoAmI = interceptOperation('SendMessage', async (call) => {
      const caller = await call.handler.caller(call.ctx, call.request.tenant);
      answered.push(caller.principal?.id ?? 'anonymous');
      return { payload: { $case: 'message', value: agentMessage(caller.principal?.id ?? 'anonymous', '', 'c') } };
    });
    const handler = new RequestHandler({
      card: testAgentCard(),
      executor: echo,
      authenticator: new ApiKeyAuthenticator({ keys: { k: 'k' } }),
      interceptors: [whoAmI],
    });
    await expect(sendMessage.invoke(handler, userSend('hi'), ctx())).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
    const known = callContext('IN-PROCESS', { 'a2a-version': '1.0', 'x-api-key': 'k' });
    await sendMessage.invoke(handler, userSend('hi'), known);
    expect(answered).toEqual(['key:k']);
  });
});
