/**
 * A command line that never loses a task: the full task id on stderr as soon as it is known,
 * Ctrl-C saying how to follow or cancel the task that goes on, `subscribe` on a task that
 * already ended, and stdout and stderr that stay on their own lines when they share a file.
 */
import { silentLogger } from '@a2a-polyglot/core';
import { startExecutor, type RunningExecutor } from '@a2a-polyglot/executor';
import { Client, textMessage } from '@a2a-polyglot/client';
import type { Task } from '@a2a-polyglot/model';
import { a2a } from './helpers.js';

jest.setTimeout(60_000);

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/** The line `a2a send` prints as soon as the agent named the task. */
const TASK_LINE = new RegExp(`^a2a: task (${UUID})$`, 'm');

let executor: RunningExecutor;
let url: string;

beforeAll(async () => {
  executor = await startExecutor({ port: 0, logLevel: 'error', grpcPort: false, demo: { chunkDelayMs: 1 } }, { logger: silentLogger });
  url = executor.url;
});

afterAll(async () => {
  await executor?.close();
});

describe('Ctrl-C during a2a send', () => {
  it('shows the full task id at once, and on Ctrl-C how to follow or cancel the task, which a2a get then finds', async () => {
    let interrupted = false;
    const run = await a2a(['send', url, 'slow'], {
      onStderr: (soFar, child) => {
        if (!interrupted && TASK_LINE.test(soFar)) {
          interrupted = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(run.code).toBe(130);
    const id = TASK_LINE.exec(run.stderr)![1]!;
    expect(run.stderr).toContain(`a2a: interrupted; task ${id} keeps running on the agent\n`);
    expect(run.stderr).toContain(`  follow it: a2a subscribe ${url} ${id}\n`);
    expect(run.stderr).toContain(`  cancel it: a2a cancel ${url} ${id}\n`);

    const got = await a2a(['get', url, id]);
    expect(got.code).toBe(0);
    expect(got.stdout).toMatch(new RegExp(`^Task ${id} .*\\nState: working`));
    const canceled = await a2a(['cancel', url, id]);
    expect(canceled.stdout).toBe(`Task ${id} is canceled.\n`);
  });
});

describe('Ctrl-C during a2a subscribe', () => {
  it('says the task goes on, with the commands that follow or cancel it', async () => {
    const client = await Client.connect(url);
    const started = await client.sendMessage({ message: textMessage('slow'), configuration: { returnImmediately: true } });
    const id = (started.payload!.value as Task).id;
    let interrupted = false;
    const run = await a2a(['subscribe', url, id], {
      onStdout: (soFar, child) => {
        if (!interrupted && soFar.includes('tick 1')) {
          interrupted = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(run.code).toBe(130);
    expect(run.stderr).toContain(`a2a: interrupted; task ${id} keeps running on the agent\n  follow it: a2a subscribe ${url} ${id}\n`);
    await client.cancelTask({ id });
    await client.close();
  });
});

describe('off a terminal', () => {
  it('stdout and stderr sharing one file stay on their own lines, with full task ids', async () => {
    const run = await a2a(['send', url, 'hello there my good friend'], { combined: true });
    expect(run.code).toBe(0);
    const id = TASK_LINE.exec(run.stdout)![1]!;
    expect(run.stdout).toBe(
      [`a2a: task ${id}`, 'a2a: submitted', 'a2a: working: Echoing', 'Echo: hello there my good friend', `a2a: task ${id} completed`, ''].join('\n'),
    );
  });

  it('keeps stdout the answer alone when the streams are apart', async () => {
    const run = await a2a(['send', url, 'only the answer']);
    expect(run.stdout).toBe('Echo: only the answer\n');
    expect(run.stderr).toMatch(new RegExp(`^a2a: task ${UUID}\\n`));
  });
});

describe('subscribe to a task that already ended', () => {
  it('shows the final task and exits 0, in text and --json', async () => {
    const sent = await a2a(['send', url, 'finished already']);
    const id = TASK_LINE.exec(sent.stderr)![1]!;
    const run = await a2a(['subscribe', url, id]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Echo: finished already\n');
    expect(run.stderr).toBe(`a2a: task ${id} completed\n`);
    const json = await a2a(['subscribe', url, id, '--json', '--binding', 'rest']);
    expect(json.code).toBe(0);
    const lines = json.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(1);
    expect(lines[0].seq).toBeNull();
    expect(lines[0].event.task.id).toBe(id);
    expect(lines[0].event.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('a failed task still ends with its reason and exit 1', async () => {
    const sent = await a2a(['send', url, 'fail']);
    const id = TASK_LINE.exec(sent.stderr)![1]!;
    const run = await a2a(['subscribe', url, id]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(new RegExp(`^a2a: task ${id} failed: The demo agent failed on purpose.*\\n$`));
  });
});
