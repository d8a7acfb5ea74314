/**
 * The one `info` line of a run that ended: the task, the agent, the call's binding and request
 * id, the state it left and how long it took; none for a message reply, nothing built below
 * info. (Handler calls here, not through OPERATIONS: the lines carry no `operation`.)
 */
import { recordingLogger, testAgentCard, userSend, waitFor } from '@a2a-polyglot/testing';
import { callContext, RequestHandler, type AgentExecutor, type Logger } from '../src/index.js';

const agent: AgentExecutor = {
  async execute(ctx) {
    if (ctx.text === 'reply') return ctx.reply('a message, no task');
    if (ctx.text === 'fail') throw new Error('agent broke');
    ctx.complete();
  },
};

function send(logger: Logger, text: string) {
  const handler = new RequestHandler({ card: testAgentCard(), executor: agent, logger });
  return handler.sendMessage(userSend(text), callContext('JSONRPC', { 'a2a-version': '1.0', 'x-request-id': 'req-end-1' }, { logger }));
}

it('writes one info line per ended task with taskId, agent, binding, reqId, state and durationMs', async () => {
  const log = recordingLogger();
  const res = await send(log, 'done');
  const taskId = res.payload?.$case === 'task' ? res.payload.value.id : '';
  await waitFor(() => log.messages('info').includes('task completed'), { what: 'the task-end line' });
  expect(log.lines.filter((l) => l.msg === 'task completed')).toEqual([
    {
      level: 'info',
      msg: 'task completed',
      fields: { binding: 'JSONRPC', reqId: 'req-end-1', taskId, agent: testAgentCard().name, state: 'completed', durationMs: expect.any(Number) },
    },
  ]);
});

it('names the state a failed task ended in, and writes none for a message reply', async () => {
  const log = recordingLogger();
  await send(log, 'fail');
  await waitFor(() => log.messages('info').includes('task failed'), { what: 'the failed line' });
  await send(log, 'reply');
  await send(log, 'done');
  await waitFor(() => log.messages('info').includes('task completed'), { what: 'the line after the reply' });
  expect(log.messages('info')).toEqual(['task failed', 'task completed']);
});

it('builds no line when info is off', async () => {
  const log = recordingLogger();
  const quiet: Logger = { ...log, child: () => quiet, isLevelEnabled: (level) => level === 'warn' || level === 'error' };
  await send(quiet, 'done');
  await send(log, 'done');
  await waitFor(() => log.messages('info').includes('task completed'), { what: 'the line of the second call' });
  expect(log.messages('info')).toEqual(['task completed']);
});
