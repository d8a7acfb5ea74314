/** liteTaggingAgent: what an agent says to a Lite peer is tagged, for every way a task ends. */
import { parseLite } from '@a2a-polyglot/a2a-lite';
import { callContext, messageText, RequestHandler, silentLogger, type AgentExecutor } from '@a2a-polyglot/core';
import type { Task } from '@a2a-polyglot/model';
import { testAgentCard, userSend } from '@a2a-polyglot/testing';
import { LiteTaskIndex, liteTaggingAgent } from '../src/a2a-lite/index.js';

const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' });

/** Sends a message that came as `[A2A:task id=L]` (as liteRouting rewrites it); the final status text, parsed. */
async function finalLite(agent: AgentExecutor, liteParams: Record<string, string> | null = { type: 'task', id: 'L' }) {
  const index = new LiteTaskIndex();
  const handler = new RequestHandler({ card: testAgentCard(), executor: liteTaggingAgent(agent, index), logger: silentLogger });
  const res = await handler.sendMessage(userSend('go', { message: { metadata: liteParams ? { a2aLite: liteParams } : undefined } }), ctx());
  const task = res.payload?.value as Task;
  return { task, lite: parseLite(messageText(task.status?.message)), index };
}

describe('liteTaggingAgent', () => {
  it('tags fail, reject and a thrown error as results, and records the Lite id', async () => {
    const failed = await finalLite({
      async execute(c) {
        c.fail('no access to X');
      },
    });
    expect(failed.lite).toMatchObject({ type: 'result', params: { task: 'L', state: 'failed', ref: failed.task.id }, body: 'no access to X' });
    expect(failed.index.candidates('', undefined, 'L')).toEqual([failed.task.id]);
    expect(
      (
        await finalLite({
          async execute(c) {
            c.reject('not my skill');
          },
        })
      ).lite,
    ).toMatchObject({ params: { state: 'rejected' }, body: 'not my skill' });
    expect(
      (
        await finalLite({
          async execute() {
            throw new Error('boom');
          },
        })
      ).lite,
    ).toMatchObject({ params: { state: 'failed' }, body: 'Agent execution failed' });
  });

  it('gives a result without a final message the text of the artifacts', async () => {
    const { lite } = await finalLite({
      async execute(c) {
        const id = c.artifact({ text: 'Sunny, ' });
        c.artifact({ artifactId: id, text: '24 °C.', append: true, lastChunk: true });
      },
    });
    expect(lite).toMatchObject({ type: 'result', params: { state: 'completed' }, body: 'Sunny, 24 °C.' });
  });

  it('leaves messages from plain callers untouched', async () => {
    const { task } = await finalLite(
      {
        async execute(c) {
          c.complete('plain');
        },
      },
      null,
    );
    expect(messageText(task.status?.message)).toBe('plain');
  });
});
