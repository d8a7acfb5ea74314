/**
 * The two-instance recipe of the READMEs (this package's and packages/stores'), run as written:
 * the shell block's variables, exported and per instance, on two built `dist/main.js`
 * processes started from the repository root. Only what a test machine must change is
 * changed: each port the block names becomes a free port (through the same variable), the
 * database URLs become the test services', and the instances share a schema and key prefix of
 * their own. A task sent to instance one is then read, streamed and canceled on instance two.
 *
 * The block is also checked as written, with its own ports: the listeners its instances
 * resolve to (HTTP and gRPC) must all differ, which is what made the second instance exit 1
 * when the block set only PORT.
 */
import { readFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { waitFor } from '@a2a-polyglot/testing';
import { grpcListenAddress, loadConfig } from '../src/config.js';
import { cleanUp, describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from './durable-services.js';
import { json, readSse, V1 } from './helpers.js';
import { buildExecutor, killHard, listeningUrl, spawnBuiltExecutor, type ExecutorProcess } from './spawn-executor.js';

jest.setTimeout(180_000);

const ROOT = resolve(__dirname, '../../..');
const COMMAND = 'node services/executor/dist/main.js &';

/** The shell block of a recipe: its exported variables, and each instance's own. */
interface Recipe {
  readonly exported: Record<string, string>;
  readonly instances: ReadonlyArray<Record<string, string>>;
  /** The body of the recipe's `message:send` call, when it makes one. */
  readonly sendBody?: unknown;
}

/** Reads the first `sh` block after `heading` in `file` (relative to the repository root). */
function recipeIn(file: string, heading: string): Recipe {
  const text = readFileSync(resolve(ROOT, file), 'utf8');
  const at = text.indexOf(heading);
  if (at < 0) throw new Error(`${file} has no ${heading}`);
  const block = /```sh\n([\s\S]*?)```/.exec(text.slice(at));
  if (!block) throw new Error(`${file}: no sh block after ${heading}`);
  const exported: Record<string, string> = {};
  const instances: Array<Record<string, string>> = [];
  let sendBody: unknown;
  for (const line of block[1]!.split('\n')) {
    const exportLine = /^export ([A-Z][A-Z0-9_]*)=(\S+)$/.exec(line);
    if (exportLine) exported[exportLine[1]!] = exportLine[2]!;
    else if (line.endsWith(COMMAND)) {
      const prefix = line.slice(0, -COMMAND.length).trim();
      const pairs = prefix.split(/\s+/).map((pair) => /^([A-Z][A-Z0-9_]*)=(\S+)$/.exec(pair));
      if (pairs.some((pair) => pair === null)) throw new Error(`${file}: cannot read the variables of ${JSON.stringify(line)}`);
      instances.push(Object.fromEntries(pairs.map((pair) => [pair![1]!, pair![2]!])));
    }
    const body = /^\s*-d '(\{.*"message".*\})'/.exec(line);
    if (body && sendBody === undefined) sendBody = JSON.parse(body[1]!);
  }
  return { exported, instances, sendBody };
}

const isPortVariable = (name: string) => name === 'PORT' || name.endsWith('_PORT');

/** A port nobody listens on now (the kernel's pick, released at once). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

const RECIPES = [
  ['services/executor/README.md', '**Two instances on PostgreSQL and Redis:**'],
  ['packages/stores/README.md', '## Running several instances on PostgreSQL and Redis'],
] as const;

describe.each(RECIPES)('the two-instance recipe of %s, as written', (file, heading) => {
  const recipe = recipeIn(file, heading);

  it('names two instances of the built service on PostgreSQL + Redis', () => {
    expect(recipe.instances).toHaveLength(2);
    expect(Object.keys(recipe.exported).sort()).toEqual(['A2A_POSTGRES_URL', 'A2A_REDIS_URL']);
  });

  it('gives each instance listeners of its own (HTTP and gRPC), so the second one starts', () => {
    const listeners = recipe.instances.flatMap((own) => {
      const { config } = loadConfig({ env: { ...recipe.exported, ...own }, argv: [], cwd: ROOT });
      const grpc = grpcListenAddress(config);
      return [`${config.host}:${config.port}`, ...(grpc ? [`${grpc.host}:${grpc.port}`] : [])];
    });
    expect(new Set(listeners).size).toBe(listeners.length);
  });
});

describeWithPostgresAndRedis('the two-instance recipe, run on two built dist/main.js processes', () => {
  const schema = uniqueName('a2a_readme');
  const prefix = schema;
  const processes: ExecutorProcess[] = [];

  beforeAll(() => {
    // The README's "after `npm run build`", for this package and what it imports (cached by turbo).
    buildExecutor();
  });

  afterAll(async () => {
    await Promise.all(processes.map(killHard));
    await cleanUp(schema, prefix);
  });

  it.each(RECIPES)('%s: a task sent to instance one is read, streamed and canceled on instance two', async (file, heading) => {
    const recipe = recipeIn(file, heading);
    const readmeBody = recipe.sendBody ?? recipeIn(RECIPES[0][0], RECIPES[0][1]).sendBody;
    expect(readmeBody).toBeDefined();
    // The recipes share one schema, and the same messageId twice is one send (idempotent sends):
    // each recipe's send gets a messageId of its own, as two operators' sends would.
    const body = readmeBody as { message: { messageId: string } };
    const sendBody = { ...body, message: { ...body.message, messageId: `${body.message.messageId}-${file.replace(/\W+/g, '-')}` } };

    // Each port value of the block gets one free port (the same value, the same port).
    const ports = new Map<string, string>();
    for (const own of recipe.instances)
      for (const [name, value] of Object.entries(own)) if (isPortVariable(name) && !ports.has(value)) ports.set(value, String(await freePort()));
    const started = recipe.instances.map((own) => {
      const env: Record<string, string> = {
        ...recipe.exported,
        A2A_POSTGRES_URL: POSTGRES_URL!,
        A2A_REDIS_URL: REDIS_URL!,
        A2A_POSTGRES_SCHEMA: schema,
        A2A_REDIS_PREFIX: prefix,
      };
      for (const [name, value] of Object.entries(own)) env[name] = isPortVariable(name) ? ports.get(value)! : value;
      const c = spawnBuiltExecutor(env);
      processes.push(c);
      return c;
    });
    const [one, two] = await Promise.all(started.map((c) => listeningUrl(c, 30_000)));

    const sent = await json(
      await fetch(`${one}/a2a/message:send`, { method: 'POST', headers: { ...V1, 'Content-Type': 'application/a2a+json' }, body: JSON.stringify(sendBody) }),
    );
    const id = sent.task.id as string;
    expect(id).toEqual(expect.any(String));

    const onTwo = await json(await fetch(`${two}/a2a/tasks/${id}`, { headers: V1 }));
    expect(onTwo.id).toBe(id);

    // Subscribed on two: the snapshot first (then the subscription is live), the cancel last.
    let live!: () => void;
    const subscribed = new Promise<void>((r) => (live = r));
    const stream = await fetch(`${two}/a2a/tasks/${id}:subscribe`, { method: 'POST', headers: { ...V1, Accept: 'text/event-stream' } });
    const events = readSse(stream, {
      until: (e, all) => {
        if (all.length === 1) live();
        return e.data?.statusUpdate?.status?.state === 'TASK_STATE_CANCELED';
      },
      timeoutMs: 20_000,
    });
    // A stream that ends or fails before its first event must fail the test, not hang it.
    await Promise.race([subscribed, events.then(() => undefined)]);

    const canceled = await json(await fetch(`${two}/a2a/tasks/${id}:cancel`, { method: 'POST', headers: V1 }));
    expect(canceled.status.state).toBe('TASK_STATE_CANCELED');
    const streamed = await events;
    expect(streamed[0]!.data.task.id).toBe(id);
    expect(streamed.at(-1)!.data.statusUpdate.status.state).toBe('TASK_STATE_CANCELED');
    await waitFor(async () => (await json(await fetch(`${one}/a2a/tasks/${id}`, { headers: V1 }))).status.state === 'TASK_STATE_CANCELED', {
      timeoutMs: 10_000,
      what: 'instance one to see the cancel',
    });

    for (const c of started) {
      expect(c.stdout).toMatch(/Storage: /);
      await killHard(c);
    }
  });
});
