/**
 * What the executor process writes, as a person and a collector see it: on a terminal (a tmux
 * pane) pino-pretty's coloured one-line entries, in a pipe JSON lines; either way one `info`
 * line per finished task (taskId, agent, binding, state, durationMs); and the OpenTelemetry
 * `console` exporter's spans on stderr, never among the JSON lines on stdout. tmux is Debian's
 * `tmux` package: without it the terminal case is skipped with a loud notice, except under
 * CI=true, where it fails (CI installs the package).
 */
import { waitFor } from '@a2a-polyglot/testing';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { json, postJson, userMessage } from './helpers.js';
import { listeningUrl, spawnExecutor, type ExecutorProcess } from './spawn-executor.js';

const TMUX = process.env.TMUX_PATH ?? '/usr/bin/tmux';
const tmuxAvailable = existsSync(TMUX);
if (!tmuxAvailable) {
  const message = `the terminal log test needs ${TMUX} (apt-get install -y tmux, or set TMUX_PATH)`;
  if (process.env.CI === 'true') throw new Error(`CI: ${message}`);
  console.warn(`SKIPPED: ${message}`);
}
const describeWithTmux = tmuxAvailable ? describe : describe.skip;

const DEMO_ENV = { PORT: '0', GRPC_PORT: 'off', A2A_DEMO_CHUNK_DELAY_MS: '1' };

/** Sends `text` to the demo agent over REST and returns the task id it answered with. */
async function sendTask(url: string, text: string): Promise<string> {
  const res = await postJson(`${url}/a2a/message:send`, { message: userMessage(text) });
  expect(res.status).toBe(200);
  return (await json(res)).task.id;
}

const children: ExecutorProcess[] = [];
afterEach(() => {
  for (const c of children.splice(0)) if (c.process.exitCode === null && c.process.signalCode === null) c.process.kill('SIGKILL');
});

describe('executor log lines in a pipe', () => {
  it('are JSON, one per finished task with its id, agent, binding, state and duration', async () => {
    const c = spawnExecutor(DEMO_ENV);
    children.push(c);
    const url = await listeningUrl(c);
    const ids = [await sendTask(url, 'first'), await sendTask(url, 'second')];
    const ended = () =>
      c.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.msg === 'task completed');
    await waitFor(() => ended().length === 2, { what: 'two task-end lines' });
    expect(ended()).toEqual(
      ids.map((taskId) =>
        expect.objectContaining({
          level: 'info',
          taskId,
          agent: 'A2A Polyglot Demo Agent',
          binding: 'HTTP+JSON',
          state: 'completed',
          durationMs: expect.any(Number),
          reqId: expect.any(String),
          operation: 'SendMessage',
        }),
      ),
    );
  });

  it('OTEL_TRACES_EXPORTER=console writes its spans to stderr, one JSON line each, and nothing to stdout', async () => {
    const c = spawnExecutor({ ...DEMO_ENV, OTEL_TRACES_EXPORTER: 'console' });
    children.push(c);
    const url = await listeningUrl(c);
    const taskId = await sendTask(url, 'traced');
    const spans = () =>
      c.stderr
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { name: string; attributes: Record<string, unknown> });
    await waitFor(() => spans().some((s) => s.name.includes('SendMessage')), { what: 'the SendMessage span on stderr' });
    await waitFor(() => c.stdout.includes('task completed'), { what: 'the task-end line' });
    // Every stdout line is one JSON object: no span dump in between.
    for (const line of c.stdout.split('\n').filter(Boolean)) expect(() => JSON.parse(line)).not.toThrow();
    expect(c.stdout).not.toContain('traceId:');
    expect(c.stdout).toContain(taskId);
    expect(
      c.stderr
        .split('\n')
        .filter(Boolean)
        .every((l) => l.startsWith('{')),
    ).toBe(true);
  });
});

describeWithTmux('executor log lines on a terminal (tmux)', () => {
  const socket = `a2a-logs-${process.pid}`;
  const session = 'executor';
  const tmux = (...args: string[]) => execFileSync(TMUX, ['-L', socket, ...args], { encoding: 'utf8' });
  /** The pane's text, wrapped lines joined; with `escapes`, its colour sequences kept. */
  const pane = (escapes = false) => tmux('capture-pane', '-p', '-J', ...(escapes ? ['-e'] : []), '-t', session, '-S', '-');

  afterAll(() => {
    try {
      tmux('kill-server');
    } catch {
      // Already gone.
    }
  });

  it('are pretty, coloured lines, one per finished task', async () => {
    const bootstrap = resolve(__dirname, '../../../scripts/run-ts.js');
    const main = resolve(__dirname, '../src/main.ts');
    const env = Object.entries({ ...DEMO_ENV, LOG_LEVEL: 'info', PATH: process.env.PATH ?? '' }).map(([k, v]) => `${k}=${v}`);
    tmux(
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      session,
      '-x',
      '400',
      '-y',
      '50',
      'env',
      '-i',
      'TERM=xterm-256color',
      ...env,
      process.execPath,
      bootstrap,
      main,
    );
    tmux('set-option', '-t', session, 'remain-on-exit', 'on');
    let url = '';
    await waitFor(
      () => {
        url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(pane())?.[1] ?? '';
        return url !== '';
      },
      { timeoutMs: 20_000, what: 'the startup line in the pane' },
    );
    const ids = [await sendTask(url, 'first'), await sendTask(url, 'second')];
    const ended = () =>
      pane()
        .split('\n')
        .filter((l) => l.includes('task completed'));
    await waitFor(() => ended().length === 2, { what: 'two task-end lines in the pane' });
    const text = pane();
    // pino-pretty's shape: `[HH:MM:ss.l] INFO: message {fields}`, never a JSON object per line.
    expect(text).not.toMatch(/^\{"level"/m);
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: A2A agent "A2A Polyglot Demo Agent" listening on /m);
    expect(text).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: Inspector: open http:\/\/127\.0\.0\.1:\d+\/inspector in a browser$/m);
    for (const [i, line] of ended().entries()) {
      expect(line).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: task completed /);
      for (const field of [`"taskId":"${ids[i]}"`, '"agent":"A2A Polyglot Demo Agent"', '"binding":"HTTP+JSON"', '"state":"completed"', '"durationMs":'])
        expect(line).toContain(field);
    }
    // Coloured: the level name comes with an ANSI colour sequence.
    expect(pane(true)).toMatch(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m\\s*INFO`));
  });
});
