/**
 * `a2a lite parse|format|run` as a user runs them: child processes, the last one against a
 * running executor (the demo agent), with output and exit codes checked.
 */
import { silentLogger } from '@a2a-polyglot/core';
import { startExecutor, type RunningExecutor } from '@a2a-polyglot/executor';
import { Client, textMessage } from '@a2a-polyglot/client';
import type { Task } from '@a2a-polyglot/model';
import { parseLite } from '@a2a-polyglot/a2a-lite';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { a2a } from './helpers.js';

jest.setTimeout(60_000);

let executor: RunningExecutor;

beforeAll(async () => {
  executor = await startExecutor({ port: 0, logLevel: 'error', demo: { chunkDelayMs: 1 } }, { logger: silentLogger });
});

afterAll(async () => {
  await executor?.close();
});

/** The tag lines of a `lite run` output, each parsed. */
function tags(stdout: string): Array<{ type: string; params: Record<string, string> }> {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('[A2A:'))
    .map((line) => {
      const parsed = parseLite(line);
      if (!parsed.isA2A) throw new Error(`not a tag: ${line}`);
      return { type: parsed.type, params: { ...parsed.params } };
    });
}

describe('help and usage', () => {
  it.each(['parse', 'format', 'run'])('lite %s --help', async (sub) => {
    const run = await a2a(['lite', sub, '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Usage: a2a lite ${sub}`);
  });

  it('lite --help and a2a --help list the lite commands', async () => {
    const lite = await a2a(['lite', '--help']);
    expect(lite.code).toBe(0);
    expect(lite.stdout).toMatch(/parse \[TEXT\|-\][\s\S]*format TYPE[\s\S]*run URL TEXT/);
    const main = await a2a(['--help']);
    expect(main.stdout).toContain('lite parse|format|run');
  });

  it('mistakes: one line, a pointer to the subcommand help, exit 2', async () => {
    const unknown = await a2a(['lite', 'shout']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe('a2a: unknown lite command "shout" (lite commands: parse, format, run)\nRun \'a2a lite --help\' for usage.\n');
    const missing = await a2a(['lite', 'run', 'http://127.0.0.1:1']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe("a2a: missing TEXT\nRun 'a2a lite run --help' for usage.\n");
    const binding = await a2a(['lite', 'run', 'http://127.0.0.1:1', 'hi', '--binding', 'grpc']);
    expect(binding.code).toBe(2);
    expect(binding.stderr).toMatch(/^a2a: Unknown option '--binding'/);
  });
});

describe('lite parse', () => {
  it('prints a tagged message as one JSON line', async () => {
    const run = await a2a([
      'lite',
      'parse',
      '[A2A:status task=t-1 state=working progress=50% eta="in ten minutes"]\nCollecting sources.\n[attachment: notes.md]',
    ]);
    expect(run.code).toBe(0);
    expect(run.stderr).toBe('');
    expect(JSON.parse(run.stdout)).toEqual({
      isA2A: true,
      type: 'status',
      params: { task: 't-1', state: 'working', progress: '50%', eta: 'in ten minutes' },
      body: 'Collecting sources.\n[attachment: notes.md]',
      attachments: ['notes.md'],
    });
    expect(run.stdout.endsWith('}\n')).toBe(true);
  });

  it('reads stdin with "-" and with no argument off a terminal', async () => {
    const dash = await a2a(['lite', 'parse', '-'], { stdin: '[A2A:task id=r-1 skill=research]\nResearch this.\n' });
    expect(dash.code).toBe(0);
    expect(JSON.parse(dash.stdout)).toMatchObject({ isA2A: true, type: 'task', params: { id: 'r-1', skill: 'research' }, body: 'Research this.' });
    const none = await a2a(['lite', 'parse'], { stdin: '[A2A:discover]' });
    expect(JSON.parse(none.stdout)).toEqual({ isA2A: true, type: 'discover', params: {}, body: '', attachments: [] });
  });

  it('untagged or malformed text degrades to a plain message, exit 0', async () => {
    const plain = await a2a(['lite', 'parse', 'just chatting']);
    expect(plain.code).toBe(0);
    expect(JSON.parse(plain.stdout)).toEqual({ isA2A: false });
    const broken = await a2a(['lite', 'parse', '[A2A:task id="unterminated]']);
    expect(broken.code).toBe(0);
    expect(JSON.parse(broken.stdout)).toMatchObject({ isA2A: false, reason: expect.any(String) });
  });
});

describe('lite format', () => {
  it('prints the tag line and the body; values that need it are quoted', async () => {
    const run = await a2a(['lite', 'format', 'task', 'id=research 1', 'skill=research', '--', 'Summarize', '-the-', 'week']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('[A2A:task id="research 1" skill=research]\nSummarize -the- week\n');
    expect(parseLite(run.stdout)).toMatchObject({ isA2A: true, params: { id: 'research 1' }, body: 'Summarize -the- week' });
  });

  it('a message the codec refuses is a usage error, exit 2', async () => {
    const missing = await a2a(['lite', 'format', 'status', 'task=t-1']);
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    expect(missing.stderr).toBe('a2a: A2A-Lite "status" messages need state=\nRun \'a2a lite format --help\' for usage.\n');
    const pair = await a2a(['lite', 'format', 'task', 'id=t', 'body-without-dashes']);
    expect(pair.code).toBe(2);
    expect(pair.stderr).toMatch(/^a2a: Expected key=value, got "body-without-dashes"/);
    const option = await a2a(['lite', 'format', 'task', '--json']);
    expect(option.code).toBe(2);
    expect(option.stderr).toMatch(/^a2a: unknown option --json/);
  });
});

describe('lite run against the demo agent', () => {
  it('a task: status messages, then a completed result with ref= and the answer', async () => {
    const run = await a2a(['lite', 'run', executor.url, '[A2A:task id=t-1 skill=echo]\nhello lite']);
    expect(run.code).toBe(0);
    const seen = tags(run.stdout);
    expect(seen.at(-1)).toMatchObject({ type: 'result', params: { task: 't-1', state: 'completed', ref: expect.any(String) } });
    expect(seen.slice(0, -1).every((t) => t.type === 'status' && t.params.task === 't-1')).toBe(true);
    expect(seen.map((t) => t.params.state)).toContain('working');
    expect(new Set(seen.map((t) => t.params.ref)).size).toBe(1);
    expect(run.stdout).toMatch(/\n\[A2A:result task=t-1 state=completed ref=[^\]\n]+\]\nEcho: hello lite\n$/);
  });

  it('--no-stream and --json: one JSON object per message', async () => {
    const run = await a2a(['lite', 'run', executor.url, '[A2A:task id=t-2]\nquietly', '--no-stream', '--json']);
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { text: string; lite: { type: string; params: Record<string, string>; body: string } });
    expect(lines.at(-1)!.lite).toMatchObject({ type: 'result', params: { task: 't-2', state: 'completed' }, body: 'Echo: quietly' });
    for (const line of lines) expect(parseLite(line.text)).toEqual(line.lite);
  });

  it('input-required: exit 3 with how to answer; the answer with ref= completes the same A2A task', async () => {
    const asked = await a2a(['lite', 'run', executor.url, '-'], { stdin: '[A2A:task id=q-1]\nask\n' });
    expect(asked.code).toBe(3);
    const question = tags(asked.stdout).at(-1)!;
    expect(question).toMatchObject({ type: 'status', params: { task: 'q-1', state: 'input-required' } });
    expect(asked.stdout).toContain('What should I echo back?');
    const ref = question.params.ref!;
    expect(asked.stderr).toContain(`[A2A:task id=q-1 ref=${ref}]`);
    const answered = await a2a(['lite', 'run', executor.url, `[A2A:task id=q-1 ref=${ref}]\nblue`]);
    expect(answered.code).toBe(0);
    expect(tags(answered.stdout).at(-1)).toMatchObject({ type: 'result', params: { task: 'q-1', state: 'completed', ref } });
    expect(answered.stdout).toMatch(/\nEcho: blue\n$/);
  });

  it('a failing task: result state=failed with the reason, exit 1', async () => {
    const run = await a2a(['lite', 'run', executor.url, '[A2A:task id=f-1]\nfail now']);
    expect(run.code).toBe(1);
    expect(tags(run.stdout).at(-1)).toMatchObject({ type: 'result', params: { task: 'f-1', state: 'failed' } });
    expect(run.stdout).toContain('failed on purpose');
  });

  it('cancel by ref=, discover, and untagged text', async () => {
    const client = await Client.connect(executor.url);
    const started = (await client.sendMessage({ message: textMessage('slow'), configuration: { returnImmediately: true } })).payload!.value as Task;
    const cancel = await a2a(['lite', 'run', executor.url, `[A2A:cancel task=s-1 ref=${started.id}]`]);
    expect(cancel.code).toBe(1);
    expect(tags(cancel.stdout)).toMatchObject([{ type: 'result', params: { task: 's-1', state: 'cancelled', ref: started.id } }]);

    const discover = await a2a(['lite', 'run', executor.url, '[A2A:discover]']);
    expect(discover.code).toBe(0);
    expect(discover.stdout).toMatch(/^\[A2A:card\]\n[\s\S]*A2A Polyglot Demo Agent/);

    const plain = await a2a(['lite', 'run', executor.url, 'hello there']);
    expect(plain.code).toBe(0);
    expect(plain.stdout).toBe('Echo: hello there\n');
  });

  it('a worker message is refused as a usage error; credentials travel as a bearer token', async () => {
    const refused = await a2a(['lite', 'run', executor.url, '[A2A:status task=t state=working]']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^a2a: \[A2A:status\] is what an agent sends back, not a request/);
    const withToken = await a2a(['lite', 'run', executor.url, '[A2A:task id=a-1]\nhi', '--token', 'secret', '-H', 'x-trace: 1']);
    expect(withToken.code).toBe(0);
  });
});

describe('lite run failures', () => {
  it('unreachable: exit 6; not an A2A server: exit 7; too slow: exit 6 within --timeout', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    await new Promise((resolve) => server.close(resolve));
    const closed = await a2a(['lite', 'run', `http://127.0.0.1:${port}`, '[A2A:discover]']);
    expect(closed.code).toBe(6);
    expect(closed.stderr).toBe(`a2a: cannot reach http://127.0.0.1:${port}: connection refused (ECONNREFUSED)\n`);
    const notA2A = await a2a(['lite', 'run', `${executor.url}/nowhere`, '[A2A:discover]']);
    expect(notA2A.code).toBe(7);
    expect(notA2A.stderr).toMatch(/^a2a: no A2A agent card at http:\/\/127\.0\.0\.1:\d+\/nowhere\/\.well-known\/agent-card\.json \(HTTP 404\)\n$/);
    const slow = await a2a(['lite', 'run', executor.url, '[A2A:task id=s-2]\nslow', '--timeout', '0.5']);
    expect(slow.code).toBe(6);
    expect(slow.stderr).toBe('a2a: the A2A-Lite exchange did not finish within 500 ms\n');
  });
});
