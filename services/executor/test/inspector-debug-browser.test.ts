/**
 * The inspector as a debugging tool, in headless Chromium (playwright-core), one case per item
 * of what it must do: a button pressed as a person presses it (120 ms) while a task streams,
 * the raw pane (card, requests, responses, SSE events, WebSocket frames; copy), agent text as
 * sanitised Markdown, a token sent in a header of any name, card checks on crafted cards, and
 * the task list's layout (measured). Each case saves a screenshot (see DOCS). Without Chromium the suite is skipped loudly, and fails
 * under CI.
 */
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { silentLogger } from '@a2a-polyglot/core';
import { describeWithChromium, launchHeadlessChromium, type HeadlessChromium } from '@a2a-polyglot/testing';
import { DEMO_QUESTION } from '../src/demo-agent.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';

// The callbacks of page.waitForFunction / evaluate run in the page, where these exist.
declare const document: any;
declare const window: any;
declare const navigator: any;
declare const getComputedStyle: any;

/**
 * Where the screenshots go: test-output/ (gitignored) on an ordinary run, so a test run leaves
 * the tree clean; docs/inspector/ (the pictures the package README shows, committed) with
 * A2A_DOCS_SCREENSHOTS=1.
 */
const DOCS = resolve(__dirname, '../../..', process.env.A2A_DOCS_SCREENSHOTS === '1' ? 'docs/inspector' : 'test-output/inspector-debug');
const WAIT_MS = 10_000;

async function shot(page: Page, selector: string, name: string): Promise<void> {
  await page.locator(selector).screenshot({ path: join(DOCS, `${name}.png`) });
}

/** Sends `text` from the composer and waits until the task view shows `state`. */
async function sendAndWait(page: Page, text: string, state: string): Promise<void> {
  await page.fill('#text', text);
  await page.click('#send');
  await page.waitForSelector(`#task-head .badge.${state}`);
}

/** Opens the inspector of `origin` on `agent` and waits for the card. */
async function openOn(page: Page, origin: string, agent?: string): Promise<void> {
  await page.goto(`${origin}/inspector${agent ? `?agent=${encodeURIComponent(agent)}` : ''}`);
  await page.waitForSelector('#agent-name');
}

/** A server answering every GET with one card (any origin may read it), as a misconfigured agent would. */
async function cardServer(card: unknown): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    const cors = { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' };
    res.writeHead(200, { 'content-type': 'application/json', ...cors }).end(JSON.stringify(card));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

describeWithChromium('inspector as a debugging tool, in headless Chromium', () => {
  jest.setTimeout(60_000);
  let running: RunningExecutor;
  let browser: HeadlessChromium;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    mkdirSync(DOCS, { recursive: true });
    // `slow` streams a tick every 100 ms: more often than a 120 ms press lasts.
    running = await startExecutor({ host: '127.0.0.1', port: 0, grpcPort: false, demo: { chunkDelayMs: 20 }, shutdownGraceMs: 200 }, { logger: silentLogger });
    browser = await launchHeadlessChromium({ viewport: { width: 1400, height: 1000 }, waitMs: WAIT_MS });
    await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: running.url });
    page = browser.page;
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await openOn(page, running.url);
  });

  afterAll(async () => {
    await browser?.close();
    await running?.close();
  });

  afterEach(() => {
    expect(pageErrors).toEqual([]);
  });

  it('cancels with a 120 ms press while the task streams: the button is the same element throughout', async () => {
    await page.fill('#text', 'slow');
    await page.click('#send');
    await page.waitForFunction(() => document.querySelectorAll('#timeline li.event').length >= 3);
    // Measured in one step in the page: a head rebuilt on every event would detach the element between two steps.
    const box = await page.locator('#cancel').evaluate((el) => {
      const r = el.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    });
    await page.evaluate(() => {
      window.cancelButton = document.querySelector('#cancel');
      document.addEventListener('mouseup', (event: any) => (window.releasedOn = event.target), { capture: true, once: true });
    });
    const before = await page.locator('#timeline li.event').count();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.waitForTimeout(120); // the press itself (the input), not a wait for a condition
    await page.mouse.up();
    const during = (await page.locator('#timeline li.event').count()) - before;
    expect(await page.evaluate(() => window.releasedOn === window.cancelButton)).toBe(true); // nor did it move from under the pointer
    await page.waitForSelector('#task-head .badge.canceled');
    expect(await page.evaluate(() => window.cancelButton === document.querySelector('#cancel'))).toBe(true);
    expect(await page.textContent('#timeline')).toContain('Cancel requested.');
    expect(during).toBeGreaterThanOrEqual(1); // events did arrive while the button was held
    await shot(page, '#task', 'cancel-while-streaming');
  });

  it('raw pane: the card, each request and response, SSE events and WebSocket frames; a copy button copies', async () => {
    const card = await (await fetch(`${running.url}/.well-known/agent-card.json`, { headers: { 'A2A-Version': '1.0' } })).json();
    const cardEntry = page.locator('#raw-log li.card').last();
    expect(await cardEntry.textContent()).toContain('"name": "A2A Polyglot Demo Agent"');
    await cardEntry.locator('button.copy').click();
    await page.waitForSelector('#raw-log li.card button.copy[data-copied="yes"]');
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText()))).toEqual(card);

    await page.click('#raw-clear');
    await page.selectOption('#binding', 'jsonrpc');
    await sendAndWait(page, 'hello raw', 'completed');
    const request = page.locator('#raw-log li.request', { hasText: 'hello raw' });
    expect(await request.textContent()).toMatch(/POST http:\/\/127\.0\.0\.1:\d+/);
    expect(await page.locator('#raw-log li.response', { hasText: 'event stream' }).count()).toBe(1);
    await page.waitForFunction(() => [...document.querySelectorAll('#raw-log li.sse')].some((li) => li.textContent.includes('TASK_STATE_COMPLETED')));
    expect(await page.locator('#raw-log li.sse').count()).toBeGreaterThanOrEqual(3);
    // A unary response with its body (the task list's ListTasks, refreshed once the task ended).
    await page.waitForFunction(() => [...document.querySelectorAll('#raw-log li.response pre')].some((pre) => /"result": \{\s+"tasks"/.test(pre.textContent)));

    await page.selectOption('#binding', 'websocket');
    await sendAndWait(page, 'hello frames', 'completed');
    await page.waitForSelector('#raw-log li.ws-out:has-text("hello frames")');
    await page.waitForFunction(() => [...document.querySelectorAll('#raw-log li.ws-in')].some((li) => li.textContent.includes('TASK_STATE_COMPLETED')));
    await page.locator('#raw-log li.ws-out', { hasText: 'hello frames' }).locator('button.copy').click();
    expect(JSON.parse(await page.evaluate(() => navigator.clipboard.readText())).params.message.parts[0].text).toBe('hello frames');
    await page.click('#raw button:has-text("Copy all")');
    const all = await page.evaluate(() => navigator.clipboard.readText());
    expect(all).toContain('hello raw');
    expect(all).toContain('← WS');
    await shot(page, '#raw', 'raw-pane');
  });

  it('renders agent text as Markdown and sanitises what could run', async () => {
    const text = [
      '**bold** and `code`',
      '',
      '- one',
      '- two',
      '',
      '<img src="x" onerror="window.pwned = 1"><script>window.pwned = 2</script>',
      '[a link](javascript:window.pwned=3) <a href="https://example.com/" onclick="window.pwned = 4">web</a>',
    ].join('\n');
    await sendAndWait(page, text, 'completed');
    const view = page.locator('#artifacts .artifact .markdown');
    await view.locator('li').nth(1).waitFor();
    expect(await view.locator('strong').textContent()).toBe('bold');
    expect(await view.locator('code').textContent()).toBe('code');
    expect(await view.locator('li').allTextContents()).toEqual(['one', 'two']);
    expect(await view.locator('script, img, [onerror], [onclick]').count()).toBe(0);
    expect(await view.locator('a:has-text("a link")').getAttribute('href')).toBeNull();
    expect(await view.locator('a:has-text("web")').getAttribute('href')).toBe('https://example.com/');
    expect(await page.evaluate(() => window.pwned)).toBeUndefined();
    await shot(page, '#artifacts', 'markdown');
  });

  it('sends the token as X-API-Key (or a header of any name) to agents with API-key auth, masked in the raw pane', async () => {
    // Cross-origin: an agent with the default API-key header that lets the inspector's origin call.
    const apiKeyAgent = await startExecutor(
      { host: '127.0.0.1', port: 0, grpcPort: false, demo: { chunkDelayMs: 0 }, auth: { apiKeys: { 'key-one': 'tester' } }, cors: { origins: [running.url] } },
      { logger: silentLogger },
    );
    // Same origin (the agent serves the inspector): any header name goes.
    const teamAgent = await startExecutor(
      { host: '127.0.0.1', port: 0, grpcPort: false, demo: { chunkDelayMs: 0 }, auth: { apiKeys: { 'key-two': 'team' }, header: 'x-team-key' } },
      { logger: silentLogger },
    );
    try {
      await openOn(page, running.url, apiKeyAgent.url);
      await page.selectOption('#auth-kind', 'header');
      expect(await page.inputValue('#auth-header')).toBe('X-API-Key');
      await page.fill('#token', 'key-one');
      await page.click('#connect');
      await page.waitForSelector('#compose:not([hidden])');
      await page.selectOption('#binding', 'jsonrpc');
      await sendAndWait(page, 'with a key header', 'completed');
      const request = page.locator('#raw-log li.request', { hasText: 'with a key header' });
      expect(await request.textContent()).toMatch(/x-api-key: •••• \(7 chars\)/);
      expect(await request.textContent()).not.toContain('key-one');

      await openOn(page, teamAgent.url);
      await page.selectOption('#binding', 'jsonrpc');
      await page.fill('#text', 'no key');
      await page.click('#send');
      await page.waitForSelector('#timeline li.note.error:has-text("UNAUTHENTICATED")');
      await page.selectOption('#auth-kind', 'header');
      await page.fill('#auth-header', 'X-Team-Key');
      await page.fill('#token', 'key-two');
      await page.click('#more-headers summary');
      await page.fill('#extra-headers', 'X-Tenant: blue');
      await page.click('#connect');
      await page.waitForSelector('#compose:not([hidden])');
      await page.selectOption('#binding', 'jsonrpc');
      await sendAndWait(page, 'with a team key', 'completed');
      const teamRequest = await page.locator('#raw-log li.request', { hasText: 'with a team key' }).textContent();
      expect(teamRequest).toMatch(/x-team-key: •••• \(7 chars\)/);
      expect(teamRequest).toContain('x-tenant: blue');
      await shot(page, 'header', 'auth-header');
      await shot(page, '#raw-log li.request:has-text("with a team key")', 'auth-header-request');
      await page.fill('#auth-header', 'not a header');
      await page.click('#connect');
      await page.waitForSelector('#status.error:has-text("is not a header name")');
    } finally {
      await apiKeyAgent.close();
      await teamAgent.close();
    }
  });

  it('card checks: wrong types, a nameless skill, a non-URL interface, an unknown binding (never left at "checking…")', async () => {
    const crafted = await cardServer({
      name: 'Crafted',
      description: 'A card with mistakes',
      version: 7,
      capabilities: { streaming: 'yes' },
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 'echo', name: '', description: 'Echoes', tags: [] }],
      supportedInterfaces: [
        { url: `${running.url}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'not a url', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        { url: 'http://127.0.0.1:9/pigeon', protocolBinding: 'CARRIER-PIGEON', protocolVersion: '1.0' },
      ],
    });
    try {
      await page.goto(`${running.url}/inspector?agent=${encodeURIComponent(crafted.url)}`);
      await page.waitForSelector('#agent-name:has-text("Crafted")');
      const problems = await page.locator('#card-problems li').allTextContents();
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^version: .*string/),
          expect.stringMatching(/^capabilities\.streaming: .*boolean/),
          'Skill "echo" has no name.',
          'The HTTP+JSON interface not a url has a URL that is not a URL.',
          'The CARRIER-PIGEON interface http://127.0.0.1:9/pigeon uses a binding this page does not know.',
        ]),
      );
      expect(problems.some((p) => /no version|has no description/.test(p))).toBe(false); // a wrong type is not "missing"
      await page.waitForFunction(() => [...document.querySelectorAll('#interfaces td:last-child')].every((td) => td.textContent !== 'checking…'));
      expect(await page.locator('#interfaces td:last-child').allTextContents()).toEqual([
        'reachable',
        'not checked (see Problems)',
        'not checked (see Problems)',
      ]);
      await shot(page, '#card', 'card-checks');
    } finally {
      crafted.server.close();
    }
  });

  it('task list: the page width, short ids with copy buttons, the status text', async () => {
    await openOn(page, running.url);
    await sendAndWait(page, 'ask', 'input-required'); // a task whose status carries a message (the question)
    await page.waitForFunction(() => document.querySelectorAll('#tasks-table tbody tr[data-task-id]').length >= 5);
    const row = page.locator('#tasks-table tbody tr[data-task-id]').first();
    const id = (await row.getAttribute('data-task-id'))!;
    expect(await row.locator('button.open-task').textContent()).toBe(`${id.slice(0, 8)}…`);
    await row.locator('td').first().locator('button.copy').click();
    await page.waitForFunction(() => document.querySelector('#tasks-table tbody tr button.copy[data-copied="yes"]'));
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(id);
    const asking = page.locator('#tasks-table tbody tr', { has: page.locator('.badge.input-required') });
    expect(await asking.locator('.status-text').textContent()).toBe(DEMO_QUESTION);
    const geometry = await page.evaluate(() => {
      const main = document.querySelector('main').getBoundingClientRect();
      const tasks = document.querySelector('#tasks').getBoundingClientRect();
      const cells = [...document.querySelectorAll('#tasks-table tbody tr[data-task-id] td:first-child')].map((td) => td.getBoundingClientRect().height);
      const line = Number.parseFloat(getComputedStyle(document.querySelector('#tasks-table td')).lineHeight) || 21;
      return { main: main.width, tasks: tasks.width, tallest: Math.max(...cells), line };
    });
    expect(geometry.tasks).toBeGreaterThan(geometry.main * 0.9); // not squeezed into one column
    expect(geometry.tallest).toBeLessThan(geometry.line * 2.5); // one line per id, not a UUID wrapped over five
    await shot(page, '#tasks', 'task-list');
  });
});
