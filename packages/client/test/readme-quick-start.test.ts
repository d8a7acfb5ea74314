/**
 * The README's quick start, run as written against a local agent: it must print what its
 * comments say (the task state by name, not the enum's number).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { transformSync } from '@swc/core';
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

/** The first ```ts block of the README, pointed at `url`, as a function of (require, console). */
function quickStart(url: string): (require: (name: string) => unknown, console: { log: (...args: unknown[]) => void }) => Promise<void> {
  const readme = readFileSync(path.join(__dirname, '../README.md'), 'utf8');
  const block = /```ts\n([\s\S]*?)```/.exec(readme)![1]!.replace("'http://127.0.0.1:8080'", JSON.stringify(url));
  // `import { a, b } from 'x'` → `const { a, b } = require('x')`, so the block runs as a function body.
  const body = block.replace(/^import \{([^}]+)\} from '([^']+)';$/gm, "const {$1} = require('$2');");
  // Inside an async function, the block's top-level awaits are valid in a script.
  const js = transformSync(`async function quickStart() {\n${body}\n}`, { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, isModule: false }).code;
  return new Function('require', 'console', `${js}\nreturn quickStart();`) as ReturnType<typeof quickStart>;
}

it('prints the task id and its state by name', async () => {
  const lines: string[] = [];
  const modules: Record<string, unknown> = { '@a2a-polyglot/client': client, '@a2a-polyglot/model': model };
  await quickStart(agent.url)((name) => modules[name], { log: (...args) => lines.push(args.map(String).join(' ')) });
  expect(lines[0]).toMatch(/^\S+ TASK_STATE_COMPLETED$/);
  expect(lines.at(-1)).toBe('terminal');
});
