/**
 * The inspector in a real browser: headless Chromium (Debian's `chromium`, driven by
 * playwright-core) opens `/inspector` on a running executor with the demo agent and uses it as
 * a person would: card, an example clicked into the composer, a streamed answer, the
 * input-required question answered in place, a dropped WebSocket resumed without duplicates,
 * cancel, the task list with filters and paging, push configs, and a narrow window. Each state
 * is saved as a screenshot under test-output/inspector/. Without Chromium the suite is skipped
 * loudly, and fails under CI.
 */
import { mkdirSync } from 'node:fs';
import type { Socket } from 'node:net';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { silentLogger } from '@a2a-polyglot/core';
import { Client } from '@a2a-polyglot/client';
import { describeWithChromium, launchHeadlessChromium, type HeadlessChromium } from '@a2a-polyglot/testing';
import { DEMO_QUESTION } from '../src/demo-agent.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';

// The callbacks of page.waitForFunction / evaluate run in the page, where these exist.
declare const document: any;
declare const window: any;

/** Where the screenshots go (gitignored). */
const OUTPUT = resolve(__dirname, '../../../test-output/inspector');
/** Every wait on the page is bounded by this. */
const WAIT_MS = 10_000;

/** The `data-seq` of every numbered event in the timeline, in order. */
function timelineSeqs(page: Page): Promise<number[]> {
  return page.$$eval('#timeline li.event', (items) =>
    items
      .map((li) => li.getAttribute('data-seq') ?? '')
      .filter((s) => s !== '')
      .map(Number),
  );
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(OUTPUT, `${name}.png`), fullPage: true });
}

/** Sends `text` from the composer (streaming) and waits until the task view shows `state`. */
async function sendAndWait(page: Page, text: string, state: string): Promise<void> {
  await page.fill('#text', text);
  await page.click('#send');
  await page.waitForSelector(`#task-head .badge.${state}`);
}

describeWithChromium('inspector in headless Chromium', () => {
  jest.setTimeout(60_000);
  let running: RunningExecutor;
  let browser: HeadlessChromium;
  let page: Page;
  const sockets = new Set<Socket>();
  const pageErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(OUTPUT, { recursive: true });
    // Chunks slow enough to watch (and to cut a stream in the middle of), push to loopback allowed for the push-config listing.
    running = await startExecutor(
      { host: '127.0.0.1', port: 0, grpcPort: false, demo: { chunkDelayMs: 120 }, push: { allowPrivateNetworks: true }, shutdownGraceMs: 200 },
      { logger: silentLogger },
    );
    running.server?.on('upgrade', (_req, socket: Socket) => {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    });
    browser = await launchHeadlessChromium({ viewport: { width: 1280, height: 1000 }, waitMs: WAIT_MS });
    page = browser.page;
    page.on('pageerror', (e) => pageErrors.push(e.message));
  });

  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  afterEach(() => {
    expect(pageErrors).toEqual([]);
  });

  it('shows the card: skills, interfaces (WebSocket chosen), capabilities, no problems', async () => {
    const response = await page.goto(`${running.url}/inspector`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    await page.waitForSelector('#agent-name:has-text("A2A Polyglot Demo Agent")');
    expect(await page.inputValue('#binding')).toBe('websocket');
    expect(await page.$$eval('#binding option', (o) => o.map((x) => x.getAttribute('value')))).toEqual(['websocket', 'jsonrpc', 'rest']);
    await page.waitForFunction(() => [...document.querySelectorAll('#interfaces td:last-child')].every((td) => td.textContent === 'reachable'));
    expect(await page.isVisible('#no-problems')).toBe(true);
    expect(await page.textContent('#capabilities')).toContain('Streaming');
    expect(await page.textContent('#status')).toContain('over WebSocket');
    await shot(page, '1-card');
  });

  it('an example fills the composer; a streamed answer is assembled chunk by chunk', async () => {
    await page.click('button.example:has-text("hello world")');
    expect(await page.inputValue('#text')).toBe('hello world');
    await sendAndWait(page, 'the quick brown fox jumps over the lazy dog', 'completed');
    await page.waitForSelector('#artifacts .artifact[data-complete="true"]');
    expect((await page.textContent('#artifacts .text-part'))?.trim()).toBe('Echo: the quick brown fox jumps over the lazy dog');
    const seqs = await timelineSeqs(page);
    expect(seqs).toEqual(seqs.map((_, i) => i + 1));
    const timeline = await page.textContent('#timeline');
    expect(timeline).toContain('append');
    expect(timeline).toContain('last chunk');
    await shot(page, '2-streamed');
  });

  it('sends a file as bytes and JSON data, blocking over JSON-RPC; shows them downloadable and as a tree', async () => {
    await page.selectOption('#binding', 'jsonrpc');
    await page.uncheck('#streaming');
    await page.click('#more-parts summary');
    await page.fill('#data', '{"colour": ');
    await page.waitForSelector('#data-error:has-text("not valid JSON")');
    await page.fill('#data', '{"colour": "blue", "sizes": [1, 2]}');
    expect(await page.textContent('#data-error')).toBe('');
    await page.setInputFiles('#file', { name: 'note.txt', mimeType: 'text/plain', buffer: Buffer.from('file body') });
    await sendAndWait(page, 'with attachments', 'completed');
    expect(await page.textContent('#status')).toContain('JSON-RPC');
    await page.waitForSelector('#timeline li.sent details.tree summary:has-text("data {2}")');
    const [download] = await Promise.all([page.waitForEvent('download'), page.click('#timeline li.sent a.file-part:has-text("Download note.txt")')]);
    expect(download.suggestedFilename()).toBe('note.txt');
    // The head names the task once the answer is shown; on a loaded machine it can still read "—" here.
    await page.waitForFunction(() => (document.querySelector('#task-id')?.textContent ?? '—') !== '—');
    const taskId = (await page.textContent('#task-id'))!;
    const client = await Client.connect(running.url, { bindings: ['rest'] });
    const sent = (await client.getTask({ id: taskId, historyLength: 5 })).history[0]!;
    await client.close();
    expect(sent.parts.map((p) => p.content?.$case)).toEqual(['text', 'raw', 'data']);
    expect(Buffer.from(sent.parts[1]!.content!.value as Uint8Array).toString()).toBe('file body');
    await shot(page, '2b-file-and-data');
    // Back to the defaults for what follows.
    await page.setInputFiles('#file', []);
    await page.fill('#data', '');
    await page.selectOption('#binding', 'websocket');
    await page.check('#streaming');
    await page.click('#more-parts summary');
  });

  it('answers input-required in place, over REST + SSE (Ctrl+Enter sends, Enter answers)', async () => {
    await page.selectOption('#binding', 'rest');
    await page.fill('#text', 'ask');
    await page.press('#text', 'Control+Enter');
    await page.waitForSelector('#answer:not([hidden])');
    expect(await page.textContent('#question')).toBe(DEMO_QUESTION);
    expect(await page.textContent('#task-head .badge')).toBe('input-required');
    await shot(page, '3-input-required');
    await page.fill('#answer-text', 'blue');
    await page.press('#answer-text', 'Enter');
    await page.waitForSelector('#task-head .badge.completed');
    await page.waitForSelector('#artifacts .text-part:has-text("Echo: blue")');
    expect(await page.isHidden('#answer')).toBe(true);
    expect(await page.textContent('#status')).toContain('REST');
    await page.selectOption('#binding', 'websocket');
  });

  it('resumes after the WebSocket is dropped: the resume point is shown, no event twice', async () => {
    await page.fill('#text', 'slow');
    await page.click('#send');
    await page.waitForFunction(() => document.querySelectorAll('#timeline li.event').length >= 4);
    expect(sockets.size).toBeGreaterThanOrEqual(1);
    for (const socket of sockets) socket.destroy();
    await page.waitForSelector('#timeline li.note.resume:has-text("after seq")');
    const before = Math.max(...(await timelineSeqs(page)));
    await page.waitForFunction((n) => [...document.querySelectorAll('#timeline li.event')].some((li) => Number(li.getAttribute('data-seq')) > n + 2), before);
    const seqs = await timelineSeqs(page);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    expect(seqs).toEqual(seqs.map((_, i) => i + 1)); // nothing lost either
    expect(await page.$$('#timeline li.note.error')).toHaveLength(0);
    expect(await page.textContent('#timeline')).toContain('Resumed: the next event is seq');
    await shot(page, '4-resumed');
  });

  it('cancels the running task', async () => {
    await page.click('#cancel');
    await page.waitForSelector('#task-head .badge.canceled');
    await page.waitForSelector('#cancel:disabled');
    expect(await page.textContent('#artifacts .artifact')).toContain('incomplete: the task ended');
    await shot(page, '5-canceled');
    // The window as a person sees it, the cut and the resume in sight (docs/inspector.png).
    await page.evaluate(() => {
      const timeline = document.querySelector('#timeline');
      timeline.scrollTop = document.querySelector('#timeline li.note.resume').offsetTop - timeline.offsetTop - 80;
      window.scrollTo(0, 0);
    });
    await page.screenshot({ path: join(OUTPUT, 'overview.png') });
  });

  it('lists tasks with filters and paging, opens one, shows its push configs', async () => {
    const client = await Client.connect(running.url, { bindings: ['jsonrpc'] });
    const listed = await client.listTasks({});
    const completed = listed.tasks.find((t) => t.status?.state === 3)!; // TASK_STATE_COMPLETED
    await client.createTaskPushNotificationConfig({ taskId: completed.id, id: 'ops-hook', url: 'http://127.0.0.1:9/hook', token: 'secret' });
    await client.close();

    await page.click('#tasks-form button[type=submit]');
    await page.waitForFunction(() => document.querySelectorAll('#tasks-table tbody tr[data-task-id]').length >= 3);
    await page.selectOption('#filter-state', { label: 'completed' });
    await page.click('#tasks-form button[type=submit]');
    await page.waitForFunction(() => {
      const badges = [...document.querySelectorAll('#tasks-table tbody .badge')];
      return badges.length > 0 && badges.every((b) => b.textContent === 'completed');
    });
    await page.fill('#filter-size', '1');
    await page.click('#tasks-form button[type=submit]');
    await page.waitForSelector('#next-page:enabled');
    const first = await page.getAttribute('#tasks-table tbody tr', 'data-task-id');
    await page.click('#next-page');
    await page.waitForFunction((id) => document.querySelector('#tasks-table tbody tr')?.getAttribute('data-task-id') !== id, first);
    await page.click('#first-page');
    await page.waitForFunction((id) => document.querySelector('#tasks-table tbody tr')?.getAttribute('data-task-id') === id, first);

    await page.fill('#filter-size', '10');
    await page.selectOption('#filter-state', { label: 'any' });
    await page.fill('#filter-after', '2999-01-01T00:00');
    await page.click('#tasks-form button[type=submit]');
    await page.waitForSelector('#tasks-table tbody td:has-text("No tasks match.")');
    await page.fill('#filter-after', '');
    await page.click('#tasks-form button[type=submit]');
    await page.click(`#tasks-table tr[data-task-id="${completed.id}"] td:nth-child(3) button`);
    await page.waitForFunction((ctx) => {
      const rows = [...document.querySelectorAll('#tasks-table tbody tr[data-task-id]')];
      return document.querySelector('#filter-context').value === ctx && rows.length === 1;
    }, completed.contextId);
    await page.fill('#filter-context', '');
    await page.click('#tasks-form button[type=submit]');
    await page.click(`#tasks-table tr[data-task-id="${completed.id}"] button:has-text("Push configs")`);
    await page.waitForSelector('#push-configs li:has-text("ops-hook")');
    expect(await page.textContent('#push-configs')).toContain('http://127.0.0.1:9/hook');
    await page.click(`#tasks-table tr[data-task-id="${completed.id}"] button.open-task`);
    await page.waitForFunction((id) => document.querySelector('#task-id')?.textContent === id, completed.id);
    await page.waitForSelector('#task-head .badge.completed');
    await page.waitForSelector('#timeline li.note.history');
    await shot(page, '6-tasks');
  });

  it('with API keys: shows the scheme, says UNAUTHENTICATED without a token, works with one over WebSocket', async () => {
    // Another executor: it lets the inspector's origin call (only its own pages may by default).
    const secured = await startExecutor(
      {
        host: '127.0.0.1',
        port: 0,
        grpcPort: false,
        demo: { chunkDelayMs: 0 },
        auth: { apiKeys: { 'inspector-key': 'tester' } },
        cors: { origins: [running.url] },
      },
      { logger: silentLogger },
    );
    try {
      await page.goto(`${running.url}/inspector?agent=${encodeURIComponent(secured.url)}`);
      await page.waitForSelector('#card-body:has-text("API key in the header")');
      await page.fill('#text', 'no key');
      await page.click('#send');
      await page.waitForSelector('#timeline li.note.error:has-text("UNAUTHENTICATED")');
      await page.fill('#token', 'inspector-key');
      await page.click('#connect');
      await page.waitForSelector('#compose:not([hidden])');
      expect(await page.inputValue('#binding')).toBe('websocket');
      await sendAndWait(page, 'with a key', 'completed');
      await page.waitForSelector('#artifacts .text-part:has-text("Echo: with a key")');
      await shot(page, '7-api-key');
    } finally {
      await secured.close();
    }
  });

  it('stays readable in a narrow window; card problems and a URL that is no agent are said plainly', async () => {
    // Another agent whose card names interfaces nobody answers at (a wrong publicBaseUrl).
    const misconfigured = await startExecutor({ host: '127.0.0.1', port: 0, grpcPort: false, publicBaseUrl: 'http://127.0.0.1:9' }, { logger: silentLogger });
    try {
      await page.setViewportSize({ width: 380, height: 800 });
      await page.goto(`${running.url}/inspector?agent=${encodeURIComponent(misconfigured.url)}`);
      await page.waitForSelector('#agent-name');
      await page.waitForSelector('#card-problems li.bad:has-text("does not answer from this page")');
      expect(await page.isHidden('#no-problems')).toBe(true);
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1)).toBe(true);
      await shot(page, '8-narrow-card-problems');
    } finally {
      await misconfigured.close();
    }
    await page.fill('#agent-url', `${running.url}/no-agent-here.json`);
    await page.press('#agent-url', 'Enter');
    await page.waitForSelector('#status.error');
    expect(await page.textContent('#status')).toMatch(/Could not connect: .*no agent card/);
    expect(await page.isHidden('#compose')).toBe(true);
  });
});
