/**
 * `a2a` as a user runs it: a child process against a running executor (the demo agent),
 * over each binding, with its output and exit code checked, including every failure line.
 */
import { silentLogger } from '@a2a-polyglot/core';
import { startExecutor, type RunningExecutor } from '@a2a-polyglot/executor';
import { startGrpcServer, type RunningGrpcServer } from '@a2a-polyglot/grpc';
import { startA2AServer, type RunningA2AServer } from '@a2a-polyglot/server';
import { Client, textMessage } from '@a2a-polyglot/client';
import { TaskState, type Task } from '@a2a-polyglot/model';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { a2a } from './helpers.js';

jest.setTimeout(60_000);

let executor: RunningExecutor;
let url: string;
/** The same agent, with a card that also lists a gRPC interface. */
let grpcFront: { http: RunningA2AServer; grpc: RunningGrpcServer };

beforeAll(async () => {
  executor = await startExecutor({ port: 0, logLevel: 'error', demo: { chunkDelayMs: 1 } }, { logger: silentLogger });
  url = executor.url;
  const grpc = await startGrpcServer({ handler: executor.handler, host: '127.0.0.1', port: 0, session: false });
  const http = await startA2AServer({
    handler: executor.handler,
    port: 0,
    logger: silentLogger,
    extraInterfaces: () => [{ url: grpc.url, protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: '' }],
  });
  grpcFront = { http, grpc };
});

afterAll(async () => {
  await grpcFront?.http.close();
  await grpcFront?.grpc.close(500);
  await executor?.close();
});

/** A demo task started through the library, not waiting for it. */
async function startTask(text: string): Promise<Task> {
  const client = await Client.connect(url);
  const response = await client.sendMessage({ message: textMessage(text), configuration: { returnImmediately: true } });
  return response.payload!.value as Task;
}

describe('help and usage', () => {
  it.each(['card', 'send', 'get', 'list', 'cancel', 'subscribe'])('%s --help', async (command) => {
    const run = await a2a([command, '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`Usage: a2a ${command}`);
    expect(run.stdout).toContain('--timeout');
  });

  it('a2a --help lists the commands and exit codes', async () => {
    const run = await a2a(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Commands:[\s\S]*subscribe URL TASK_ID[\s\S]*Exit codes:/);
  });

  it('mistakes: one line, a pointer to --help, exit 2', async () => {
    const unknown = await a2a(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toBe(
      'a2a: unknown command "frobnicate" (commands: card, send, get, list, cancel, subscribe, lite)\nRun \'a2a --help\' for usage.\n',
    );
    const missing = await a2a(['send', url]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^a2a: missing TEXT\nRun 'a2a send --help' for usage\.\n$/);
    const badBinding = await a2a(['card', url, '--binding', 'carrier-pigeon']);
    expect(badBinding.code).toBe(2);
    expect(badBinding.stderr).toMatch(/--binding must be one of jsonrpc, rest, grpc, websocket/);
  });

  it('a URL without http:// or https:// is a usage error (exit 2), not an agent that is not A2A', async () => {
    const bare = url.replace(/^http:\/\//, '');
    const run = await a2a(['send', bare, 'hi']);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`a2a: URL must start with http:// or https:// (got "${bare}"; did you mean http://${bare}?)\nRun 'a2a send --help' for usage.\n`);
    const lite = await a2a(['lite', 'run', bare, 'hi']);
    expect(lite.code).toBe(2);
  });
});

describe('commands against the demo agent', () => {
  it('card: a readable summary, and --json', async () => {
    const run = await a2a(['card', url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^A2A Polyglot Demo Agent/);
    expect(run.stdout).toMatch(/1\. JSONRPC\s+1\.0\s+http:\/\/127\.0\.0\.1:\d+\/a2a\/rpc/);
    const json = await a2a(['card', url, '--json']);
    const bindings = JSON.parse(json.stdout).supportedInterfaces.map((i: { protocolBinding: string }) => i.protocolBinding);
    expect(bindings.slice(0, 2)).toEqual(['JSONRPC', 'HTTP+JSON']);
  });

  it('card: the interface table is aligned, however long a binding name is', async () => {
    const run = await a2a(['card', url]);
    const rows = run.stdout.split('\n').filter((l) => /^\s+\d+\. /.test(l));
    expect(rows.map((r) => r.split(/\s+/)[2])).toContain('urn:a2a-polyglot:binding:websocket:v1');
    // Where the version and the URL columns start, row by row: the same on every row.
    const starts = rows.map((r) => {
      const [, head, version, gap] = /^(\s+\d+\.\s+\S+\s+)(\S+)(\s+)/.exec(r)!;
      return `${head!.length}/${head!.length + version!.length + gap!.length}`;
    });
    expect(new Set(starts).size).toBe(1);
  });

  it.each([['jsonrpc'], ['rest'], ['grpc']])('send streams the answer (--binding %s)', async (binding) => {
    const target = binding === 'grpc' ? grpcFront.http.url : url;
    const run = await a2a(['send', target, 'hello there my good friend', '--binding', binding]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Echo: hello there my good friend\n');
    expect(run.stderr).toMatch(/completed\n$/);
  });

  it('send --no-stream waits for the final answer', async () => {
    const run = await a2a(['send', url, 'one two', '--no-stream']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Echo: one two\n');
  });

  it('send --json: one JSON object per event, seq included, last one completed', async () => {
    const run = await a2a(['send', url, 'json please', '--json']);
    expect(run.code).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0].seq).toBe(1);
    expect(Object.keys(lines[0].event)).toEqual(['task']);
    expect(lines.at(-1).event.statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
    const blocking = await a2a(['send', url, 'json please', '--json', '--no-stream']);
    expect(JSON.parse(blocking.stdout).task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('a failing task: its reason on stderr, exit 1', async () => {
    const run = await a2a(['send', url, 'fail']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/a2a: task [0-9a-f-]+ failed: The demo agent failed on purpose/);
  });

  it('input-required without a terminal: the question, then exit 3', async () => {
    const run = await a2a(['send', url, 'ask']);
    expect(run.code).toBe(3);
    expect(run.stdout).toMatch(/^What should I echo back\?/);
    const taskId = /--task-id ([0-9a-f-]+)/.exec(run.stderr)![1]!;
    const answer = await a2a(['send', url, 'crimson', '--task-id', taskId]);
    expect(answer.code).toBe(0);
    expect(answer.stdout).toBe('Echo: crimson\n');
  });

  it('input-required answered by --input, and by a prompt on (pseudo-)interactive stdin', async () => {
    const flagged = await a2a(['send', url, 'ask', '--input', 'teal']);
    expect(flagged.code).toBe(0);
    expect(flagged.stdout).toMatch(/What should I echo back\?.*\nEcho: teal\n$/);
    const prompted = await a2a(['send', url, 'ask', '--binding', 'rest'], { stdin: 'magenta\n', env: { A2A_INTERACTIVE: '1' } });
    expect(prompted.code).toBe(0);
    expect(prompted.stdout).toMatch(/What should I echo back\?.*\n> Echo: magenta\n$/);
    const eof = await a2a(['send', url, 'ask'], { stdin: '', env: { A2A_INTERACTIVE: '1' } });
    expect(eof.code).toBe(3);
  });

  it('get, list and cancel', async () => {
    const task = await startTask('slow');
    const got = await a2a(['get', url, task.id]);
    expect(got.code).toBe(0);
    expect(got.stdout).toMatch(new RegExp(`^Task ${task.id}`));
    expect(got.stdout).toMatch(/State: (submitted|working)/);
    const list = await a2a(['list', url, '--context-id', task.contextId]);
    expect(list.code).toBe(0);
    expect(list.stdout).toMatch(new RegExp(`^${task.id}  (submitted|working)`));
    const listJson = await a2a(['list', url, '--json', '--status', 'working']);
    expect(JSON.parse(listJson.stdout).tasks.map((t: Task) => t.id)).toContain(task.id);
    const canceled = await a2a(['cancel', url, task.id, '--binding', 'rest']);
    expect(canceled.code).toBe(0);
    expect(canceled.stdout).toBe(`Task ${task.id} is canceled.\n`);
  });

  it('get --history N prints the messages, oldest first', async () => {
    const asked = await a2a(['send', url, 'ask', '--input', 'ochre']);
    const id = /^a2a: task (\S+)$/m.exec(asked.stderr)![1]!;
    const run = await a2a(['get', url, id, '--history', '10']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/History \(\d+ messages, oldest first\):\n {2}user: ask\n {2}agent: What should I echo back\?[^\n]*\n {2}user: ochre\n/);
  });

  it('subscribe follows a running task to its end', async () => {
    const task = await startTask('slow');
    let canceled = false;
    const run = await a2a(['subscribe', url, task.id], {
      onStdout: (out) => {
        if (!canceled && out.includes('tick 2')) {
          canceled = true;
          void Client.connect(url).then((c) => c.cancelTask({ id: task.id }));
        }
      },
    });
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/tick 1.*tick 2/s);
    expect(run.stderr).toMatch(new RegExp(`a2a: task ${task.id} canceled`));
  });
});

describe('failure lines', () => {
  let plain: Server;
  let silent: Server;
  let plainUrl: string;
  let silentUrl: string;

  beforeAll(async () => {
    plain = createServer((req, res) => {
      if (req.url === '/bad/.well-known/agent-card.json') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify({ name: 'broken', capabilities: {} }));
      }
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<html>nothing here</html>');
    });
    silent = createServer(() => undefined);
    for (const s of [plain, silent]) await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
    plainUrl = `http://127.0.0.1:${(plain.address() as AddressInfo).port}`;
    silentUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    silent.closeAllConnections();
    for (const s of [plain, silent]) await new Promise((resolve) => s.close(resolve));
  });

  it('unreachable host: exit 6', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const run = await a2a(['send', `http://127.0.0.1:${port}`, 'hi']);
    expect(run.code).toBe(6);
    expect(run.stderr).toBe(`a2a: cannot reach http://127.0.0.1:${port}: connection refused (ECONNREFUSED)\n`);
  });

  it('not an A2A server: exit 7', async () => {
    const run = await a2a(['card', plainUrl]);
    expect(run.code).toBe(7);
    expect(run.stderr).toMatch(/^a2a: http:\/\/127\.0\.0\.1:\d+ does not look like an A2A server: no agent card at .*\(404\).*\n$/);
  });

  it('a malformed card: exit 7, naming the problem', async () => {
    const run = await a2a(['get', `${plainUrl}/bad`, 'x']);
    expect(run.code).toBe(7);
    expect(run.stderr).toMatch(/^a2a: malformed agent card at .*: "supportedInterfaces" is missing\n$/);
  });

  it('an A2A error from the agent: its reason and code, exit 5', async () => {
    const run = await a2a(['get', url, 'no-such-task']);
    expect(run.code).toBe(5);
    expect(run.stderr).toBe('a2a: the agent answered TASK_NOT_FOUND (JSON-RPC -32001): Task no-such-task not found\n');
    const rest = await a2a(['cancel', url, 'no-such-task', '--binding', 'rest']);
    expect(rest.stderr).toBe('a2a: the agent answered TASK_NOT_FOUND (HTTP 404): Task no-such-task not found\n');
  });

  it('a server that never answers: exit 6 within --timeout', async () => {
    const started = Date.now();
    const run = await a2a(['card', silentUrl, '--timeout', '0.5']);
    expect(run.code).toBe(6);
    expect(run.stderr).toMatch(/^a2a: GET http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json: no answer within 500 ms\n$/);
    expect(Date.now() - started).toBeLessThan(15_000);
  });
});

describe('auth', () => {
  let secured: RunningExecutor;
  beforeAll(async () => {
    secured = await startExecutor({ port: 0, logLevel: 'error', auth: { apiKeys: { s3cret: 'alice' } } }, { logger: silentLogger });
  });
  afterAll(async () => {
    await secured?.close();
  });

  it('--token and --header carry credentials; without them the agent says UNAUTHENTICATED', async () => {
    const denied = await a2a(['send', secured.url, 'hi', '--no-stream']);
    expect(denied.code).toBe(5);
    expect(denied.stderr).toMatch(/^a2a: the agent answered UNAUTHENTICATED .*\nThe agent wants credentials: pass --token TOKEN .* or --header 'Name: value'/);
    const bearer = await a2a(['send', secured.url, 'hi', '--token', 's3cret']);
    expect(bearer.code).toBe(0);
    const header = await a2a(['send', secured.url, 'hi', '--header', 'x-api-key: s3cret', '--binding', 'rest']);
    expect(header.code).toBe(0);
    expect(header.stdout).toBe('Echo: hi\n');
  });
});

// Keep the TaskState import used for readers of the file: states the CLI maps to exit codes.
void TaskState;
