/**
 * The WebSocket client in a real browser: headless Chromium (Debian's `chromium`, driven by
 * playwright-core) loads a page whose script is the esbuild browser bundle of the client,
 * served by the same node:http server that serves the agent (card, JSON-RPC, REST and the
 * WebSocket upgrade). Covers card discovery, send, stream, cancel, and resume after the
 * server drops the socket. Without Chromium it is skipped loudly, and fails under CI.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describeWithChromium, launchHeadlessChromium, type HeadlessChromium } from '@a2a-polyglot/testing';
import { ApiKeyAuthenticator, RequestHandler, silentLogger } from '@a2a-polyglot/core';
import { createA2ARequestListener, createA2AUpgradeHandler, type A2AUpgradeHandler } from '@a2a-polyglot/server';
import { WEBSOCKET_BINDING } from '../src/index.js';
import { Gates, scriptedAgent, testCard, waitFor } from './helpers.js';
import { bundleForBrowser } from './websocket-helpers.js';

/** Every wait on the page is bounded by this. */
const WAIT_MS = 10_000;
const TOKEN = 'browser-token';

interface PageServer {
  readonly url: string;
  readonly gates: Gates;
  readonly upgrades: A2AUpgradeHandler;
  dropSockets(): number;
  close(): Promise<void>;
}

/** One node:http server: `/` (the page), `/client.js` (the bundle), everything else A2A. */
async function startPageServer(bundle: string): Promise<PageServer> {
  const gates = new Gates();
  const handler = new RequestHandler({
    card: testCard(),
    executor: scriptedAgent(gates),
    logger: silentLogger,
    authenticator: new ApiKeyAuthenticator({ keys: { [TOKEN]: 'browser' } }),
  });
  const shutdown = new AbortController();
  const options = { handler, logger: silentLogger, websocket: { heartbeatMs: 0 }, shutdownSignal: shutdown.signal };
  const a2a = createA2ARequestListener(options);
  const upgrades = createA2AUpgradeHandler(options)!;
  const html = '<!doctype html><meta charset="utf-8"><title>a2a ws</title><script src="/client.js"></script>';
  const server: Server = createServer((req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    if (req.url === '/client.js') return void res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(bundle);
    a2a(req, res);
  });
  server.on('upgrade', upgrades.listener);
  const sockets = new Set<Socket>();
  server.on('upgrade', (_req, socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    gates,
    upgrades,
    dropSockets() {
      const n = sockets.size;
      for (const s of sockets) s.destroy();
      return n;
    },
    async close() {
      shutdown.abort();
      await handler.shutdown(0);
      await upgrades.binding.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Calls `a2aTest.<method>(...args)` in the page. */
function call<T = any>(page: Page, method: string, ...args: unknown[]): Promise<T> {
  return page.evaluate(([m, a]) => (globalThis as any).a2aTest[m as string](...(a as unknown[])), [method, args] as const);
}

/** Waits (bounded) until the page's stream `name` satisfies `check` (a predicate source over `run`). */
async function waitForRun(page: Page, name: string, check: string): Promise<any> {
  await page.waitForFunction(
    ([n, c]) => {
      const run = (globalThis as any).a2aTest.run(n);
      return run !== undefined && new Function('run', `return (${c});`)(run);
    },
    [name, check] as const,
    { timeout: WAIT_MS, polling: 20 },
  );
  return call(page, 'run', name);
}

describeWithChromium('WebSocket client in headless Chromium', () => {
  jest.setTimeout(60_000);
  let server: PageServer;
  let browser: HeadlessChromium;
  let page: Page;

  beforeAll(async () => {
    const { code } = await bundleForBrowser(join(__dirname, 'websocket-browser-page.ts'));
    server = await startPageServer(code);
    browser = await launchHeadlessChromium({ waitMs: WAIT_MS });
    page = browser.page;
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${server.url}/`);
    await page.waitForFunction(() => (globalThis as any).a2aTest !== undefined, undefined, { timeout: WAIT_MS });
    expect(errors).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('fetches the card and picks the WebSocket interface (token in the auth subprotocol)', async () => {
    const connected = await call(page, 'connect', TOKEN);
    expect(connected).toEqual({ binding: 'websocket', url: `${server.url.replace('http://', 'ws://')}/a2a/ws`, cardName: 'client-test' });
    expect(WEBSOCKET_BINDING).toBe('urn:a2a-polyglot:binding:websocket:v1');
  });

  it('sends a message and gets the completed task', async () => {
    const task = await call(page, 'send', 'steps 2');
    expect(task.state).toBe('TASK_STATE_COMPLETED');
    expect(task.artifacts).toEqual(['chunk 0', 'chunk 1']);
  });

  it('streams numbered events to the terminal state', async () => {
    await call(page, 'startStream', 'plain', 'steps 2');
    const run = await waitForRun(page, 'plain', 'run.done');
    expect(run.error).toBeUndefined();
    expect(run.events.map((e: any) => [e.seq, e.kind])).toEqual([
      [1, 'task'],
      [2, 'statusUpdate'],
      [3, 'artifactUpdate'],
      [4, 'artifactUpdate'],
      [5, 'statusUpdate'],
    ]);
    expect(run.end).toBe('terminal');
  });

  it('cancels a task, and leaving a stream early only stops delivery', async () => {
    expect((await call(page, 'sendAndCancel', 'hang')).state).toBe('TASK_STATE_CANCELED');
    await call(page, 'startStream', 'left', 'gate gl', 2);
    const run = await waitForRun(page, 'left', 'run.done');
    expect(run.events).toHaveLength(2);
    // The server saw cancelStream: no stream is open any more, the task still works.
    await waitFor(() => server.upgrades.binding.stats().every((s) => s.openStreams === 0), { timeoutMs: WAIT_MS, what: 'every stream to close' });
    expect(await call(page, 'taskState', run.taskId)).toBe('TASK_STATE_WORKING');
    server.gates.open('gl');
  });

  it('resumes after the socket is dropped: no gap, no duplicate', async () => {
    await call(page, 'startStream', 'cut', 'gate gc 3');
    await waitForRun(page, 'cut', 'run.events.length >= 2');
    expect(server.dropSockets()).toBeGreaterThanOrEqual(1);
    server.gates.open('gc');
    const run = await waitForRun(page, 'cut', 'run.done');
    expect(run.error).toBeUndefined();
    expect(run.events.map((e: any) => e.seq)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(run.events.at(-1).state).toBe('TASK_STATE_COMPLETED');
    expect(run.resumes).toBeGreaterThanOrEqual(1);
    expect(run.end).toBe('terminal');
  });

  it('a wrong token is refused by the core authenticator, per call', async () => {
    await call(page, 'connect', 'wrong-token');
    expect(await call(page, 'failing', 'x')).toMatchObject({ code: 'UNAUTHENTICATED' });
  });
});
