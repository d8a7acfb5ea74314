import { RequestHandler, silentLogger, type AgentExecutor } from '@a2a-polyglot/core';
import { rest, rpc, sendParams, startTestServer, testCard, type TestServer } from './helpers.js';

/** Each task carries an artifact of as many KiB as its message says. */
const sized: AgentExecutor = {
  async execute(c) {
    c.artifact({ text: 'x'.repeat(Number(c.text) * 1024), lastChunk: true });
    c.complete();
  },
};

describe('ListTasks byte budget over the JSON bindings', () => {
  let s: TestServer;
  const ids: string[] = [];
  beforeAll(async () => {
    const handler = new RequestHandler({ card: testCard(), executor: sized, logger: silentLogger, listTasksMaxBytes: 64 * 1024 });
    s = await startTestServer({ handler });
    for (let i = 0; i < 12; i++) {
      const res = await rest(s.restUrl, 'POST', '/message:send', sendParams(String(10 + (i % 4) * 15)));
      ids.push(res.body.task.id);
    }
  });
  afterAll(() => s.close());

  async function pageThrough(
    next: (token: string) => Promise<{ tasks: Array<{ id: string }>; nextPageToken: string }>,
  ): Promise<{ seen: string[]; pages: number; largest: number }> {
    const seen: string[] = [];
    let token = '';
    let pages = 0;
    let largest = 0;
    do {
      const page = await next(token);
      expect(page.tasks.length).toBeGreaterThan(0);
      largest = Math.max(largest, Buffer.byteLength(JSON.stringify(page.tasks)));
      seen.push(...page.tasks.map((t) => t.id));
      token = page.nextPageToken;
      pages++;
    } while (token !== '' && pages < 50);
    return { seen, pages, largest };
  }

  it('REST: paging through everything returns every task once, in pages under the budget', async () => {
    const { seen, pages, largest } = await pageThrough(async (token) => {
      const res = await rest(s.restUrl, 'GET', `/tasks?pageSize=100&includeArtifacts=true${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
      expect(res.status).toBe(200);
      return res.body;
    });
    expect(pages).toBeGreaterThan(1);
    expect(largest).toBeLessThanOrEqual(64 * 1024);
    expect(seen).toHaveLength(ids.length);
    expect(new Set(seen)).toEqual(new Set(ids));
  });

  it('JSON-RPC: paging through everything returns every task once', async () => {
    const { seen, pages } = await pageThrough(async (pageToken) => {
      const res = await rpc(s.rpcUrl, 'ListTasks', { pageSize: 100, includeArtifacts: true, ...(pageToken ? { pageToken } : {}) });
      return res.body.result;
    });
    expect(pages).toBeGreaterThan(1);
    expect(seen).toHaveLength(ids.length);
    expect(new Set(seen)).toEqual(new Set(ids));
  });
});
