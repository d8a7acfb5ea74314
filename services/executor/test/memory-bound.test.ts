/**
 * [memory-bound] The executor's memory stays bounded under large input, with default limits
 * and a 512 MB heap cap (`--max-old-space-size=512`): large sends whose bytes sit deep in a
 * data part (the store's estimate once stopped counting below 64 levels) and large streamed
 * sends (whose events the event log once held by count only). Before the byte bounds, 169
 * nested sends or 84 streamed sends killed such a process (out of memory).
 *
 * How memory is measured: the executor runs in a child process with the inspector on
 * (`--inspect=127.0.0.1:0`, an ephemeral loopback port), and the test asks it over the
 * DevTools protocol for a full garbage collection (`HeapProfiler.collectGarbage`, twice so
 * what the first one finalised goes too) and then for `process.memoryUsage().rss`. So the
 * figure is the resident memory of the live process after a forced GC, as the issue's
 * "RSS under 450 MB after a forced GC" asks, without a test-only hook in the product. The
 * child is the built `dist/main.js`, as `npm start` runs it: run from sources (SWC on load)
 * it started at 157 MB instead of 74 and read 403–446 MB after the nested sends, with the
 * bound at 472 MB, and once went over on a loaded machine.
 *
 * 100 sends of each kind by default (run time about 15 s on an idle 2-core box);
 * `MEMORY_BOUND_SENDS=500` runs the full 500 + 500 and prints the figures.
 */
import WebSocket from 'ws';
import { waitFor } from './helpers.js';
import { buildExecutor, killHard, listeningUrl, spawnBuiltExecutor, type ExecutorProcess } from './spawn-executor.js';

const SENDS = Number(process.env.MEMORY_BOUND_SENDS ?? 100);
const RSS_BOUND = 450 * 1024 * 1024;
const MB = 1024 * 1024;
/** 3 MB of text (one flat string per send: the server parses its own copy anyway). */
const TEXT = 'x'.repeat(3_000_000);
const DEPTH = 60;
const MESSAGE_ID = '__message_id__';
/** Sends in flight at once. */
const CONCURRENCY = 2;

jest.setTimeout(Math.max(120_000, SENDS * 1500));

/** A DevTools-protocol session with the child's inspector. */
class Inspector {
  private nextId = 0;
  private readonly pending = new Map<number, (result: any) => void>();
  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const message = JSON.parse(String(data));
      this.pending.get(message.id)?.(message.result);
      this.pending.delete(message.id);
    });
  }

  static async connect(url: string): Promise<Inspector> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return new Inspector(socket);
  }

  call(method: string, params: Record<string, unknown> = {}): Promise<any> {
    const id = ++this.nextId;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Resident set size of the process right after two full garbage collections. */
  async rssAfterGc(): Promise<number> {
    await this.call('HeapProfiler.collectGarbage');
    await this.call('HeapProfiler.collectGarbage');
    const answer = await this.call('Runtime.evaluate', { expression: 'process.memoryUsage().rss', returnByValue: true });
    return answer.result.value as number;
  }

  close(): void {
    this.socket.close();
  }
}

describe('[memory-bound] executor memory under large nested and large streamed sends', () => {
  let child: ExecutorProcess;
  let inspector: Inspector;
  let url: string;

  beforeAll(async () => {
    buildExecutor();
    child = spawnBuiltExecutor({ PORT: '0', GRPC_PORT: 'off', LOG_LEVEL: 'info', A2A_DEMO_CHUNK_DELAY_MS: '0' }, [
      '--max-old-space-size=512',
      '--inspect=127.0.0.1:0',
    ]);
    url = await listeningUrl(child, 60_000);
    await waitFor(() => /ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/.test(child.stderr), { what: 'the inspector URL' });
    inspector = await Inspector.connect(/ws:\/\/127\.0\.0\.1:\d+\/[\w-]+/.exec(child.stderr)![0]);
  });
  afterAll(async () => {
    inspector?.close();
    if (child) await killHard(child);
  });

  /**
   * POSTs `body` (JSON text built once; each send gets its own message id in place of
   * `MESSAGE_ID`). A send failing because the executor died says how it died.
   */
  const post = async (path: string, body: string, headers: Record<string, string> = {}): Promise<Response> => {
    try {
      return await fetch(`${url}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'A2A-Version': '1.0', ...headers },
        body: body.replace(MESSAGE_ID, crypto.randomUUID()),
      });
    } catch (error) {
      // A dying process closes its sockets before its exit is reported: give the exit a moment.
      const exited = await waitFor(() => child.process.exitCode !== null || child.process.signalCode !== null, { timeoutMs: 5000, what: 'the exit' }).then(
        () => true,
        () => false,
      );
      if (!exited) throw error;
      const reason = /FATAL ERROR[^\n]*/.exec(child.stderr)?.[0] ?? child.stderr.slice(-600);
      throw new Error(`the executor died (exit ${child.process.exitCode ?? child.process.signalCode}): ${reason}`);
    }
  };
  const sendBody = (part: unknown, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ message: { messageId: MESSAGE_ID, role: 'ROLE_USER', parts: [part] }, ...extra });
  let data: Record<string, unknown> = { blob: TEXT };
  for (let i = 0; i < DEPTH; i++) data = { a: data };
  // historyLength 0: the answer leaves the 3 MB out (the server holds it all the same).
  const NESTED = sendBody({ data }, { configuration: { historyLength: 0 } });
  const STREAMED = sendBody({ text: TEXT });
  const report = (what: string, rss: number) => {
    if (process.env.MEMORY_BOUND_SENDS)
      process.stdout.write(`[memory-bound] ${what}: RSS ${(rss / MB).toFixed(0)} MB after a forced GC (${new Date().toISOString()})\n`);
  };

  it(`stays alive with RSS under 450 MB after ${SENDS} sends of 3 MB nested ${DEPTH} deep and ${SENDS} streamed sends of 3 MB`, async () => {
    report('at start', await inspector.rssAfterGc());
    await inParallel(SENDS, async () => {
      const res = await post('/a2a/message:send', NESTED);
      expect(res.status).toBe(200);
      expect(await res.text()).toContain('"TASK_STATE_COMPLETED"');
    });
    const afterNested = await inspector.rssAfterGc();
    report(`after ${SENDS} nested sends`, afterNested);
    await inParallel(SENDS, async () => {
      const res = await post('/a2a/message:stream', STREAMED, { Accept: 'text/event-stream' });
      expect(res.status).toBe(200);
      // Read to the end, not parsed (6 MB of events each): the last event is the completion.
      const text = await res.text();
      expect(text.slice(-1000)).toContain('"TASK_STATE_COMPLETED"');
    });
    const afterStreamed = await inspector.rssAfterGc();
    report(`after ${SENDS} streamed sends`, afterStreamed);

    expect(child.process.exitCode).toBeNull();
    expect((await fetch(`${url}/.well-known/agent-card.json`)).status).toBe(200);
    expect(afterNested).toBeLessThan(RSS_BOUND);
    expect(afterStreamed).toBeLessThan(RSS_BOUND);
  });
});

/** Runs `count` calls of `send`, {@link CONCURRENCY} at a time (client and server then overlap on two cores). */
async function inParallel(count: number, send: () => Promise<void>): Promise<void> {
  let started = 0;
  const lane = async () => {
    while (started < count) {
      started++;
      await send();
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
}
