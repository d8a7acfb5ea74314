/**
 * The README's quick start, run as written against a local agent: it must print what its
 * comments say (the task state by name, not the enum's number).
 */
import path from 'node:path';
import { runReadmeExample } from '@a2a-polyglot/testing';
import * as client from '../src/index.js';
import * as model from '@a2a-polyglot/model';
import { startTestAgent, type TestAgent } from './helpers.js';

let agent: TestAgent;

beforeAll(async () => {
  agent = await startTestAgent({
    handler: {
      executor: {
        async execute(ctx) {
          ctx.artifact({ name: 'answer', text: `You said: ${ctx.text}`, lastChunk: true });
          ctx.complete();
        },
      },
    },
  });
});

afterAll(async () => {
  await agent?.close();
});

it('prints the task id and its state by name', async () => {
  const modules: Record<string, unknown> = { '@a2a-polyglot/client': client, '@a2a-polyglot/model': model };
  const lines = await runReadmeExample(path.join(__dirname, '../README.md'), {
    load: (name) => modules[name],
    edit: (code) => code.replace("'http://127.0.0.1:8080'", JSON.stringify(agent.url)),
  });
  expect(lines[0]).toMatch(/^\S+ TASK_STATE_COMPLETED$/);
  expect(lines.at(-1)).toBe('terminal');
});
