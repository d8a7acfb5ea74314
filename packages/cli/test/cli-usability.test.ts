/**
 * The CLI's usability promises, run as a user runs `a2a` (a child process against a real
 * executor): card problems and their exit code, `--json` failures on stdout, `--page-size`
 * refused before sending, an empty answer asked again, `send --no-wait`, credentials from the
 * environment, and hints that name the command the way the user started it.
 */
import { silentLogger } from '@a2a-polyglot/core';
import { startExecutor, type RunningExecutor } from '@a2a-polyglot/executor';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { invocationOf } from '../src/invocation.js';
import { a2a } from './helpers.js';

jest.setTimeout(60_000);

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';

let executor: RunningExecutor;
let secured: RunningExecutor;
let url: string;
/** Serves the card of `cards[path]` at `<path>/.well-known/agent-card.json`. */
let cardServer: Server;
let cardBase: string;

const GOOD_INTERFACE = { url: 'http://127.0.0.1:9/a2a/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' };
const BASE_CARD = {
  name: 'checked',
  description: 'A card for the checks',
  version: '1.0.0',
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  supportedInterfaces: [GOOD_INTERFACE],
  skills: [{ id: 'echo', name: 'Echo', description: 'echoes', tags: [] }],
};
const cards: Record<string, unknown> = {
  '/clean': BASE_CARD,
  '/broken': {
    ...BASE_CARD,
    version: 3,
    capabilities: { streaming: 'yes' },
    supportedInterfaces: [
      GOOD_INTERFACE,
      { url: 'not a url', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: 'http://127.0.0.1:9/pigeon', protocolBinding: 'CARRIER-PIGEON', protocolVersion: '1.0' },
    ],
    skills: [{ id: 'nameless', description: 'has no name', tags: [] }],
  },
  '/undocumented': { ...BASE_CARD, description: '' },
};

beforeAll(async () => {
  executor = await startExecutor({ port: 0, logLevel: 'error', grpcPort: false, demo: { chunkDelayMs: 1 } }, { logger: silentLogger });
  url = executor.url;
  secured = await startExecutor(
    { port: 0, logLevel: 'error', grpcPort: false, auth: { apiKeys: { s3cret: 'alice' }, header: 'x-team-key' } },
    { logger: silentLogger },
  );
  cardServer = createServer((req, res) => {
    const card = cards[(req.url ?? '').replace(/\/\.well-known\/agent-card\.json$/, '')];
    if (card === undefined) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card));
  });
  await new Promise<void>((resolve) => cardServer.listen(0, '127.0.0.1', resolve));
  cardBase = `http://127.0.0.1:${(cardServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => cardServer?.close(resolve));
  await secured?.close();
  await executor?.close();
});

describe('a2a card checks the card', () => {
  it('a clean card (and the demo agent card): no problem, exit 0', async () => {
    for (const target of [`${cardBase}/clean`, url]) {
      const run = await a2a(['card', target]);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
    }
  });

  it('wrong types, a nameless skill, a non-URL interface and an unknown binding: each listed, exit 7', async () => {
    const run = await a2a(['card', `${cardBase}/broken`]);
    expect(run.code).toBe(7);
    expect(run.stdout).toMatch(/^checked {2}\(version 3\)/); // the card is still shown
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^a2a: the agent card at http:\/\/127\.0\.0\.1:\d+\/broken\/\.well-known\/agent-card\.json has 5 problems:$/);
    expect(lines.slice(1)).toEqual([
      expect.stringMatching(/^ {2}error: version: expected a string, got number$/),
      expect.stringMatching(/^ {2}error: capabilities\.streaming: expected a boolean, got string$/),
      '  error: Skill "nameless" has no name.',
      '  error: The HTTP+JSON interface not a url has a URL that is not a URL.',
      '  error: The CARRIER-PIGEON interface http://127.0.0.1:9/pigeon uses a binding a2a does not know.',
    ]);
  });

  it('warnings alone are listed but exit 0', async () => {
    const run = await a2a(['card', `${cardBase}/undocumented`]);
    expect(run.code).toBe(0);
    expect(run.stderr).toMatch(/has a problem:\n {2}warning: The card has no description\.\n$/);
  });

  it('--json: the card, then the errors as one JSON object', async () => {
    const run = await a2a(['card', `${cardBase}/broken`, '--json']);
    expect(run.code).toBe(7);
    const [card, failure, ...rest] = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rest).toEqual([]);
    expect(card.name).toBe('checked');
    expect(failure.error).toMatchObject({ message: expect.stringMatching(/has 5 errors$/), exitCode: 7 });
    expect(failure.error.problems).toHaveLength(5);
    expect(failure.error.problems[2]).toEqual({ level: 'bad', text: 'Skill "nameless" has no name.', field: 'skills[0].name' });
  });
});

describe('--json failures are JSON on stdout', () => {
  it('an agent error: message, exit code and the A2A code', async () => {
    const run = await a2a(['get', url, 'no-such-task', '--json']);
    expect(run.code).toBe(5);
    expect(JSON.parse(run.stdout)).toEqual({
      error: {
        message: 'the agent answered TASK_NOT_FOUND (JSON-RPC -32001): Task no-such-task not found',
        exitCode: 5,
        code: 'TASK_NOT_FOUND',
        wireCode: 'JSON-RPC -32001',
      },
    });
    expect(run.stderr).toMatch(/^a2a: the agent answered TASK_NOT_FOUND/);
  });

  it('a usage error and an unreachable agent', async () => {
    const usage = await a2a(['list', url, '--json', '--status', 'sleeping']);
    expect(usage.code).toBe(2);
    expect(JSON.parse(usage.stdout)).toEqual({ error: { message: expect.stringMatching(/--status: unknown task state "sleeping"/), exitCode: 2 } });
    const unreachable = await a2a(['card', 'http://127.0.0.1:9', '--json']);
    expect(unreachable.code).toBe(6);
    expect(JSON.parse(unreachable.stdout).error).toMatchObject({ message: expect.stringMatching(/^cannot reach/), exitCode: 6 });
  });
});

describe('list --page-size', () => {
  it.each(['0', '101'])('--page-size %s is refused before anything is sent', async (size) => {
    // An agent that cannot be reached: a usage error (2) proves nothing was sent (that would be 6).
    const run = await a2a(['list', 'http://127.0.0.1:9', '--page-size', size]);
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(`a2a: --page-size must be between 1 and 100 (got ${size})\nRun 'a2a list --help' for usage.\n`);
  });
});

describe('the input-required prompt', () => {
  it('Enter on an empty line asks again instead of sending an empty answer', async () => {
    const run = await a2a(['send', url, 'ask'], { stdin: '\n   \nteal\n', env: { A2A_INTERACTIVE: '1' } });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/What should I echo back\?.*\n> > > Echo: teal\n$/);
  });
});

describe('send --no-wait', () => {
  it('prints the task id on stdout at once; the task goes on', async () => {
    const started = Date.now();
    const run = await a2a(['send', url, 'slow', '--no-wait']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^${UUID}\\n$`));
    const id = run.stdout.trim();
    expect(run.stderr).toMatch(new RegExp(`^a2a: task ${id} (submitted|working); follow it: a2a subscribe ${url} ${id}\\n$`));
    const got = await a2a(['get', url, id]);
    expect(got.stdout).toMatch(/State: (submitted|working)/); // the slow task has not finished
    await a2a(['cancel', url, id]);
    expect(Date.now() - started).toBeLessThan(30_000);
  });

  it('--no-wait with --input is a usage error', async () => {
    const run = await a2a(['send', url, 'ask', '--no-wait', '--input', 'x']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--no-wait does not wait for questions/);
  });
});

describe('credentials from the environment', () => {
  it('A2A_TOKEN is the bearer token; A2A_API_KEY goes in the header the card names', async () => {
    const denied = await a2a(['send', secured.url, 'hi', '--no-stream']);
    expect(denied.code).toBe(5);
    const bearer = await a2a(['send', secured.url, 'hi', '--no-stream'], { env: { A2A_TOKEN: 's3cret' } });
    expect(bearer.code).toBe(0);
    for (const binding of ['jsonrpc', 'rest']) {
      const keyed = await a2a(['send', secured.url, 'hi', '--binding', binding], { env: { A2A_API_KEY: 's3cret' } });
      expect(keyed.code).toBe(0);
      expect(keyed.stdout).toBe('Echo: hi\n');
    }
    const flagWins = await a2a(['send', secured.url, 'hi', '--no-stream', '--token', 'wrong'], { env: { A2A_TOKEN: 's3cret' } });
    expect(flagWins.code).toBe(5);
  });
});

describe('hints name the command the way the user ran it', () => {
  const npx = { npm_command: 'exec', npm_lifecycle_event: 'npx' };
  const npmRun = {
    npm_command: 'run-script',
    npm_lifecycle_event: 'a2a',
    npm_lifecycle_script: 'node scripts/quiet-build.js @a2a-polyglot/cli && node packages/cli/bin/a2a.js',
  };

  it('the input-required hint and the pointer to --help, under npx and npm run', async () => {
    const asked = await a2a(['send', url, 'ask'], { env: npx });
    expect(asked.code).toBe(3);
    expect(asked.stderr).toMatch(new RegExp(`answer with: npx a2a send ${url} '<answer>' --task-id ${UUID}\\n`));
    const usage = await a2a(['send', url], { env: npmRun });
    expect(usage.stderr).toBe("a2a: missing TEXT\nRun 'npm run a2a -- send --help' for usage.\n");
  });

  it('the Ctrl-C hint under npx', async () => {
    let interrupted = false;
    const run = await a2a(['send', url, 'slow'], {
      env: npx,
      onStderr: (soFar, child) => {
        if (!interrupted && new RegExp(`^a2a: task ${UUID}$`, 'm').test(soFar)) {
          interrupted = true;
          child.kill('SIGINT');
        }
      },
    });
    expect(run.code).toBe(130);
    const id = new RegExp(`^a2a: task (${UUID})$`, 'm').exec(run.stderr)![1]!;
    expect(run.stderr).toContain(`  follow it: npx a2a subscribe ${url} ${id}\n  cancel it: npx a2a cancel ${url} ${id}\n`);
    await a2a(['cancel', url, id]);
  });

  it('the rule, case by case', () => {
    expect(invocationOf({}, '/usr/local/bin/a2a', '/home/me')).toBe('a2a');
    expect(invocationOf({}, '/home/me/repo/packages/cli/bin/a2a.js', '/home/me/repo')).toBe('node packages/cli/bin/a2a.js');
    expect(invocationOf({}, '/opt/a2a/dist/main.js', '/home/me')).toBe('node /opt/a2a/dist/main.js');
    expect(invocationOf(npx, '/repo/node_modules/.bin/a2a', '/repo')).toBe('npx a2a');
    expect(invocationOf(npmRun, '/repo/packages/cli/bin/a2a.js', '/repo')).toBe('npm run a2a --');
    // An npm script that runs a2a with its own arguments: `npm run <it>` would not take a2a's.
    expect(invocationOf({ ...npmRun, npm_lifecycle_event: 'demo', npm_lifecycle_script: 'a2a send http://x hi' }, '/repo/node_modules/.bin/a2a', '/repo')).toBe(
      'a2a',
    );
  });
});
