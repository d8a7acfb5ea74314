import { TaskState, type SendMessageRequest } from '@a2a-polyglot/model';
import { userSend, testAgentCard } from '@a2a-polyglot/testing';
import {
  callContext,
  combineObservers,
  OPERATIONS,
  RequestHandler,
  type AgentExecutor,
  type CallObserver,
  type StreamOperation,
  type UnaryOperation,
} from '../src/index.js';

const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' });

/** An observer that writes what it sees, tagged `name`, into `log`; its runs mark their nesting. */
function recorder(name: string, log: string[]): CallObserver {
  return {
    operationStarted(operation, _ctx, request) {
      log.push(`${name} start ${operation} ${request ? 'with request' : 'without request'}`);
      return {
        run: (call) => {
          log.push(`${name} enter`);
          try {
            return call();
          } finally {
            log.push(`${name} leave`);
          }
        },
        done: (outcome, result) => log.push(`${name} done ${outcome} ${result === undefined ? 'no result' : 'result'}`),
        streamOpened: () => {
          log.push(`${name} stream opened`);
          return () => log.push(`${name} stream ended`);
        },
      };
    },
    taskRunStarted(task) {
      log.push(`${name} run ${task.taskId ? 'of a task' : '?'}`);
      return {
        firstEvent: () => log.push(`${name} first event`),
        ended: (failure, state) =>
          log.push(`${name} run ended ${failure === undefined ? 'ok' : 'failed'} in ${state === undefined ? 'none' : TaskState[state]}`),
      };
    },
    taskStateEntered(state, task) {
      log.push(`${name} state ${TaskState[state]} ${task.contextId ? 'with context' : '?'}`);
    },
    pushDelivered(outcome, task) {
      log.push(`${name} push ${outcome} ${task.taskId ? 'of a task' : '?'}`);
    },
  };
}

const echo: AgentExecutor = {
  async execute(ctx) {
    ctx.working();
    ctx.complete();
  },
};

const sendMessage = OPERATIONS.SendMessage as UnaryOperation<SendMessageRequest>;
const sendStreaming = OPERATIONS.SendStreamingMessage as StreamOperation<SendMessageRequest>;

describe('combineObservers', () => {
  it('is undefined without observers (the unobserved fast path) and the observer itself when alone', () => {
    const one = recorder('a', []);
    expect(combineObservers()).toBeUndefined();
    expect(combineObservers(undefined, undefined)).toBeUndefined();
    expect(combineObservers(undefined, one)).toBe(one);
  });

  it('reports an operation, its run and its states to each observer, runs nested first-outermost', async () => {
    const log: string[] = [];
    const handler = new RequestHandler({ card: testAgentCard(), executor: echo, observer: combineObservers(recorder('a', log), recorder('b', log)) });
    await sendMessage.invoke(handler, userSend('hi'), ctx());
    await handler.shutdown(1000);
    expect(log.slice(0, 4)).toEqual(['a start SendMessage with request', 'b start SendMessage with request', 'a enter', 'b enter']);
    expect(log).toContain('a done ok result');
    expect(log).toContain('b done ok result');
    expect(log.filter((l) => l.startsWith('a state'))).toEqual([
      'a state TASK_STATE_SUBMITTED with context',
      'a state TASK_STATE_WORKING with context',
      'a state TASK_STATE_COMPLETED with context',
    ]);
    expect(log.filter((l) => l.includes(' run'))).toEqual([
      'a run of a task',
      'b run of a task',
      'a run ended ok in TASK_STATE_COMPLETED',
      'b run ended ok in TASK_STATE_COMPLETED',
    ]);
  });

  it('tells each observer when a stream opens and ends, with no result for the stream', async () => {
    const log: string[] = [];
    const handler = new RequestHandler({ card: testAgentCard(), executor: echo, observer: combineObservers(recorder('a', log), recorder('b', log)) });
    const stream = await sendStreaming.open(handler, userSend('hi'), ctx());
    for await (const _ of stream) {
      // to the end
    }
    expect(log.filter((l) => l.includes('done') || l.includes('stream'))).toEqual([
      'a done ok no result',
      'b done ok no result',
      'a stream opened',
      'b stream opened',
      'a stream ended',
      'b stream ended',
    ]);
  });

  it('reports a failed agent run as failed', async () => {
    const log: string[] = [];
    const failing: AgentExecutor = {
      async execute() {
        throw new Error('boom');
      },
    };
    const handler = new RequestHandler({ card: testAgentCard(), executor: failing, observer: recorder('a', log) });
    await sendMessage.invoke(handler, userSend('hi'), ctx());
    await handler.shutdown(1000);
    expect(log).toContain('a run ended failed in TASK_STATE_FAILED');
  });
});

describe('task run observations', () => {
  it("report the run's first event once, as the task is announced, before its first state", async () => {
    const log: string[] = [];
    const handler = new RequestHandler({ card: testAgentCard(), executor: echo, observer: combineObservers(recorder('a', log), recorder('b', log)) });
    await sendMessage.invoke(handler, userSend('hi'), ctx());
    await handler.shutdown(1000);
    expect(log.filter((l) => l.startsWith('a ') && (l.includes('first') || l.includes('state') || l.includes(' run')))).toEqual([
      'a run of a task',
      'a first event',
      'a state TASK_STATE_SUBMITTED with context',
      'a state TASK_STATE_WORKING with context',
      'a state TASK_STATE_COMPLETED with context',
      'a run ended ok in TASK_STATE_COMPLETED',
    ]);
    expect(log.filter((l) => l === 'b first event')).toHaveLength(1);
  });

  it('count a reply as the first answer, and end such a run in no state', async () => {
    const log: string[] = [];
    const replying: AgentExecutor = {
      async execute(c) {
        c.reply('hello');
      },
    };
    const handler = new RequestHandler({ card: testAgentCard(), executor: replying, observer: recorder('a', log) });
    await sendMessage.invoke(handler, userSend('hi'), ctx());
    await handler.shutdown(1000);
    expect(log.filter((l) => l.includes('first') || l.includes(' run'))).toEqual(['a run of a task', 'a first event', 'a run ended ok in none']);
  });

  it("time a follow-up's first event from its own first report (an artifact), and end an interrupted run in its state", async () => {
    const log: string[] = [];
    let gate!: () => void;
    const asking: AgentExecutor = {
      async execute(c) {
        if (!c.task) return void c.requireInput('which?');
        await new Promise<void>((resolve) => (gate = resolve));
        c.artifact({ text: 'answer', lastChunk: true });
        c.complete();
      },
    };
    const handler = new RequestHandler({ card: testAgentCard(), executor: asking, observer: recorder('a', log) });
    const first = (await sendMessage.invoke(handler, userSend('hi'), ctx())) as { payload?: { $case: string; value: { id: string; contextId: string } } };
    const task = first.payload?.value;
    if (!task) throw new Error('no task');
    while (!log.includes('a run ended ok in TASK_STATE_INPUT_REQUIRED')) await new Promise((resolve) => setImmediate(resolve));
    log.length = 0;
    await sendMessage.invoke(handler, userSend('this one', { taskId: task.id, contextId: task.contextId, configuration: { returnImmediately: true } }), ctx());
    while (gate === undefined) await new Promise((resolve) => setImmediate(resolve));
    expect(log.filter((l) => l.includes('first'))).toEqual([]);
    gate();
    await handler.shutdown(1000);
    expect(log.filter((l) => l.includes('first') || l.includes(' run') || l.includes('state'))).toEqual([
      'a run of a task',
      'a first event',
      'a state TASK_STATE_COMPLETED with context',
      'a run ended ok in TASK_STATE_COMPLETED',
    ]);
  });

  it('report each push delivery with its outcome to every observer', async () => {
    const log: string[] = [];
    const handler = new RequestHandler({
      card: testAgentCard(),
      executor: echo,
      observer: combineObservers(recorder('a', log), recorder('b', log)),
      allowPrivateWebhooks: true,
      pushSender: { send: async (_config, event) => (event.payload?.$case === 'task' ? 'rejected' : 'delivered') },
    });
    const request = userSend('hi', {
      configuration: {
        returnImmediately: false,
        taskPushNotificationConfig: { tenant: '', id: '', taskId: '', url: 'http://127.0.0.1:1/hook', token: '', authentication: undefined },
      },
    });
    await sendMessage.invoke(handler, request, ctx());
    await (handler as unknown as { push: { idle(): Promise<void> } }).push.idle();
    await handler.shutdown(1000);
    expect(log.filter((l) => l.startsWith('a push'))).toEqual(['a push rejected of a task', 'a push delivered of a task', 'a push delivered of a task']);
    expect(log.filter((l) => l.startsWith('b push'))).toHaveLength(3);
  });
});
