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
      return { ended: (failure) => log.push(`${name} run ended ${failure === undefined ? 'ok' : 'failed'}`) };
    },
    taskStateEntered(state, task) {
      log.push(`${name} state ${TaskState[state]} ${task.contextId ? 'with context' : '?'}`);
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
    expect(log.filter((l) => l.includes(' run'))).toEqual(['a run of a task', 'b run of a task', 'a run ended ok', 'b run ended ok']);
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
    expect(log).toContain('a run ended failed');
  });
});
