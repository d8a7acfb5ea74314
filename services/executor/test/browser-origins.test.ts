/**
 * An executor with the defaults (loopback, no auth) against pages of other origins, in headless
 * Chromium (Debian's `chromium`, driven by playwright-core):
 * - a page on another loopback port, and one on 127.0.0.2 calling the executor as `localhost`,
 *   can neither read (JSON-RPC, REST, WebSocket) nor send (simple requests that need no
 *   preflight, over JSON-RPC and REST); only the public agent card is readable;
 * - a name that resolves to the executor (DNS rebinding, simulated with Chromium's host
 *   resolver rules) gets 403 for the inspector and the A2A endpoints;
 * - an origin listed in `cors.origins` can call, and the same-origin inspector still works;
 * - file parts and links in the inspector never become active content in the executor's
 *   origin: an HTML file part opened in a tab is downloaded, not rendered, and `javascript:` or
 *   `data:` URLs from cards or parts are not links.
 * Without Chromium the suite is skipped loudly, and fails under CI.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Download, Page } from 'playwright-core';
import { RequestHandler, silentLogger } from '@a2a-polyglot/core';
import { Client } from '@a2a-polyglot/client';
import { Role } from '@a2a-polyglot/model';
import { type RunningA2AServer, startA2AServer } from '@a2a-polyglot/server';
import { describeWithChromium, launchHeadlessChromium, testAgentCard, waitFor, type HeadlessChromium } from '@a2a-polyglot/testing';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';

/** Every wait on the page is bounded by this. */
const WAIT_MS = 10_000;
/** A name Chromium resolves to the executor's loopback address, as a rebound DNS name would. */
const REBOUND = 'rebind.test';

/**
 * The other origin's page: `attack(target, tag)` tries to read tasks over REST, JSON-RPC and
 * WebSocket, reads the card, and sends a message over JSON-RPC and REST as "simple" requests
 * (no custom header, a body without a content type: no preflight, so the browser sends them
 * whatever CORS says; only the server can refuse them).
 */
const ATTACK_PAGE = `<!doctype html><meta charset="utf-8"><title>elsewhere</title><script>
async function read(url, init) {
  try {
    const r = await fetch(url, init);
    return 'read ' + r.status;
  } catch (e) {
    return 'refused';
  }
}
function send(url, body) {
  return fetch(url, { method: 'POST', mode: 'no-cors', body: new Blob([JSON.stringify(body)]) }).then(() => 'sent', () => 'failed');
}
function socket(url) {
  return new Promise((resolve) => {
    const ws = new WebSocket(url, ['a2a.v1']);
    ws.onopen = () => ws.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ListTasks', params: {} }));
    ws.onmessage = () => { resolve('read'); ws.close(); };
    ws.onerror = () => resolve('refused');
    ws.onclose = () => resolve('refused');
  });
}
window.attack = async (target, tag) => {
  const v1 = { 'a2a-version': '1.0' };
  const out = {
    restTasks: await read(target + '/a2a/tasks'),
    restTasksV1: await read(target + '/a2a/tasks', { headers: v1 }),
    jsonRpc: await read(target + '/a2a/rpc', { method: 'POST', headers: { 'content-type': 'application/json', ...v1 }, body: '{"jsonrpc":"2.0","id":1,"method":"ListTasks","params":{}}' }),
    websocket: await socket(target.replace(/^http/, 'ws') + '/a2a/ws?A2A-Version=1.0'),
    card: await read(target + '/.well-known/agent-card.json'),
  };
  await send(target + '/a2a/rpc', { jsonrpc: '2.0', id: 2, method: 'message/send', params: { message: { kind: 'message', role: 'user', messageId: tag + '-rpc', parts: [{ kind: 'text', text: tag + ' over JSON-RPC' }] } } });
  await send(target + '/a2a/v1/message:send', { message: { messageId: tag + '-rest', role: 'ROLE_USER', content: [{ text: tag + ' over REST' }] } });
  return out;
};
</script>`;

const REFUSED = { restTasks: 'refused', restTasksV1: 'refused', jsonRpc: 'refused', websocket: 'refused', card: 'read 200' };

/** A server of the attack page on `host` (another origin than the executor's). */
async function startPageServer(host: string): Promise<{ readonly url: string; readonly server: Server }> {
  const server = createServer((_req, res) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(ATTACK_PAGE));
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return { url: `http://${host}:${(server.address() as AddressInfo).port}`, server };
}

/** Every task's JSON (history included) as the executor's own Node client sees it. */
async function allTasksJson(url: string): Promise<string> {
  const client = await Client.connect(url, { bindings: ['jsonrpc'] });
  try {
    return JSON.stringify(await client.listTasks({ historyLength: 10, pageSize: 100 }));
  } finally {
    await client.close();
  }
}

async function attack(page: Page, from: string, target: string, tag: string): Promise<Record<string, string>> {
  await page.goto(`${from}/`);
  return page.evaluate(([t, g]) => (globalThis as any).attack(t, g), [target, tag] as const);
}

describeWithChromium('an executor in a browser: other origins can neither read nor send', () => {
  jest.setTimeout(60_000);
  let running: RunningExecutor;
  let port: string;
  let browser: HeadlessChromium;
  let page: Page;
  const pages: Array<{ readonly url: string; readonly server: Server }> = [];

  beforeAll(async () => {
    running = await startExecutor({ host: '127.0.0.1', port: 0, grpcPort: false, demo: { chunkDelayMs: 0 }, shutdownGraceMs: 200 }, { logger: silentLogger });
    port = new URL(running.url).port;
    pages.push(await startPageServer('127.0.0.1'), await startPageServer('127.0.0.2'));
    browser = await launchHeadlessChromium({ waitMs: WAIT_MS, args: [`--host-resolver-rules=MAP ${REBOUND} 127.0.0.1`] });
    page = browser.page;
    // A task of someone else that the other origins must not see.
    const client = await Client.connect(running.url, { bindings: ['jsonrpc'] });
    await client.sendMessage({ message: { messageId: 'owner-1', role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: 'private note' } }] } });
    await client.close();
  });

  afterAll(async () => {
    await browser?.close();
    await running?.close();
    for (const p of pages) p.server.close();
  });

  it('a page on another loopback port can neither read nor send (JSON-RPC, REST, WebSocket)', async () => {
    expect(await attack(page, pages[0]!.url, running.url, 'port-attack')).toEqual(REFUSED);
    expect(await allTasksJson(running.url)).not.toContain('port-attack');
  });

  it('nor can a page on 127.0.0.2 that calls the executor as localhost', async () => {
    expect(await attack(page, pages[1]!.url, `http://localhost:${port}`, 'alias-attack')).toEqual(REFUSED);
    expect(await allTasksJson(running.url)).not.toContain('alias-attack');
  });

  it('a rebound DNS name gets 403 for the inspector and the A2A endpoints', async () => {
    for (const path of ['/inspector', '/a2a/tasks', '/a2a/rpc']) {
      const response = await page.goto(`http://${REBOUND}:${port}${path}`);
      expect([path, response?.status()]).toEqual([path, 403]);
    }
  });

  it('the same-origin inspector still works, as 127.0.0.1 and as localhost, over WebSocket, JSON-RPC and REST', async () => {
    for (const origin of [running.url, `http://localhost:${port}`]) {
      await page.goto(`${origin}/inspector`);
      await page.waitForSelector('#agent-name:has-text("A2A Polyglot Demo Agent")');
      await page.waitForFunction(() =>
        [...(globalThis as any).document.querySelectorAll('#interfaces td:last-child')].every((td: any) => td.textContent === 'reachable'),
      );
      await page.waitForSelector('#tasks-table tbody tr[data-task-id]');
      for (const binding of ['websocket', 'jsonrpc', 'rest']) {
        await page.selectOption('#binding', binding);
        await page.fill('#text', `same origin over ${binding}`);
        await page.click('#send');
        await page.waitForSelector(`#artifacts .text-part:has-text("Echo: same origin over ${binding}")`);
      }
    }
    expect(await allTasksJson(running.url)).toContain('same origin over rest');
  });

  it('an origin listed in cors.origins can call', async () => {
    const allowing = await startExecutor(
      { host: '127.0.0.1', port: 0, grpcPort: false, demo: { chunkDelayMs: 0 }, cors: { origins: [pages[0]!.url] } },
      { logger: silentLogger },
    );
    try {
      expect(await attack(page, pages[0]!.url, allowing.url, 'allowed-origin')).toEqual({
        restTasks: 'read 400', // a request without A2A-Version is A2A 0.3, whose REST routes are under /v1
        restTasksV1: 'read 200',
        jsonRpc: 'read 200',
        websocket: 'read',
        card: 'read 200',
      });
      expect(await allTasksJson(allowing.url)).toContain('allowed-origin over REST');
      expect(await attack(page, pages[1]!.url, allowing.url, 'unlisted')).toEqual(REFUSED);
    } finally {
      await allowing.close();
    }
  });
});

describeWithChromium('the inspector never turns an agent’s files or links into active content', () => {
  jest.setTimeout(60_000);
  let running: RunningExecutor;
  let other: RunningA2AServer;
  let browser: HeadlessChromium;
  let page: Page;
  let taskId: string;
  const planted = '<!doctype html><p id="planted">planted</p><script>document.title = "script ran"</script>';

  beforeAll(async () => {
    running = await startExecutor({ host: '127.0.0.1', port: 0, grpcPort: false, demo: { chunkDelayMs: 0 }, shutdownGraceMs: 200 }, { logger: silentLogger });
    // Another caller plants HTML and script URLs in a message of its own.
    const client = await Client.connect(running.url, { bindings: ['jsonrpc'] });
    const sent = await client.sendMessage({
      message: {
        messageId: 'planted-1',
        role: Role.ROLE_USER,
        parts: [
          { content: { $case: 'text', value: 'look at these' } },
          { content: { $case: 'raw', value: Buffer.from(planted) }, filename: 'page.html', mediaType: 'text/html' },
          { content: { $case: 'url', value: 'javascript:document.title="script ran"' }, filename: 'script.html' },
          {
            content: { $case: 'url', value: `data:text/html;base64,${Buffer.from(planted).toString('base64')}` },
            filename: 'inline.html',
            mediaType: 'text/html',
          },
          { content: { $case: 'url', value: 'https://files.example.com/report.pdf' }, filename: 'report.pdf' },
        ],
      },
    });
    taskId = (sent.payload as any).value.id;
    await client.close();
    // An agent whose card links to script.
    const card = testAgentCard({
      name: 'linking agent',
      provider: { organization: 'Provider', url: 'javascript:document.title="script ran"' },
      documentationUrl: 'javascript:document.title="script ran"',
    });
    other = await startA2AServer({
      handler: new RequestHandler({ card, executor: { execute: async (ctx) => ctx.complete('ok') }, logger: silentLogger }),
      logger: silentLogger,
    });
    browser = await launchHeadlessChromium({ waitMs: WAIT_MS });
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await other?.close();
    await running?.close();
  });

  async function openPlantedTask(): Promise<void> {
    await page.goto(`${running.url}/inspector`);
    await page.waitForSelector(`#tasks-table tr[data-task-id="${taskId}"] button.open-task`);
    await page.click(`#tasks-table tr[data-task-id="${taskId}"] button.open-task`);
    await page.waitForSelector('#timeline li.note.history a.file-part:has-text("page.html")');
  }

  it('an HTML file part opened in a new tab is downloaded, not rendered in the executor’s origin', async () => {
    await openPlantedTask();
    const href = (await page.getAttribute('#timeline li.note.history a.file-part:has-text("page.html")', 'href'))!;
    expect(href).toMatch(/^blob:/);
    // As "open in new tab" does; the tab closes once its download starts.
    const downloads: Download[] = [];
    const popups: Page[] = [];
    const onPage = (popup: Page) => {
      popups.push(popup);
      popup.on('download', (d) => downloads.push(d));
    };
    const onDownload = (d: Download) => downloads.push(d);
    browser.context.on('page', onPage);
    page.on('download', onDownload); // Chromium reports it on the opener when the new tab only downloads
    try {
      await page.evaluate((url) => void (globalThis as any).window.open(url), href);
      await waitFor(() => downloads.length === 1, { what: 'the download of the opened file', timeoutMs: WAIT_MS });
      expect(downloads[0]!.url()).toBe(href);
      // Nothing rendered: the tab had only the download to do and is gone.
      await waitFor(() => popups.length > 0 && popups.every((p) => p.isClosed()), { what: 'the new tab to close', timeoutMs: WAIT_MS });
    } finally {
      browser.context.off('page', onPage);
      page.off('download', onDownload);
    }
  });

  it('javascript: and data: URLs in parts are no links; data: URLs download as bytes; http(s) stays a link', async () => {
    await openPlantedTask();
    const hrefs = await page.$$eval('#timeline li.note.history a', (links) => links.map((a) => a.getAttribute('href') ?? ''));
    expect(hrefs.filter((h) => !/^(blob:|https?:)/.test(h))).toEqual([]);
    expect(hrefs).toContain('https://files.example.com/report.pdf');
    expect(await page.textContent('#timeline li.note.history')).toContain('javascript:document.title');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#timeline li.note.history a.file-part:has-text("inline.html")')]);
    expect(download.suggestedFilename()).toBe('inline.html');
    expect(await page.title()).not.toBe('script ran');
  });

  it('javascript: URLs in a card are shown as text, not as links', async () => {
    await page.goto(`${running.url}/inspector?agent=${encodeURIComponent(other.url)}`);
    await page.waitForSelector('#agent-name:has-text("linking agent")');
    expect(await page.$$eval('#card-body a', (links) => links.map((a) => a.getAttribute('href') ?? '').filter((h) => !/^https?:/.test(h)))).toEqual([]);
    expect(await page.textContent('#card-body')).toContain('javascript:document.title');
  });
});
