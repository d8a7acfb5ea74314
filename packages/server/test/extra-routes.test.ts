import type { ExtraRoutes } from '../src/index.js';
import { startTestServer, type TestServer } from './helpers.js';

/** Answers `GET /page` with text; declines everything else. */
const page: ExtraRoutes = async (_req, res, path) => {
  if (path !== '/page') return false;
  res.writeHead(200, { 'content-type': 'text/plain' }).end('a page');
  return true;
};

describe('extraRoutes', () => {
  let s: TestServer;
  afterEach(() => s?.close());

  it('serves the host’s routes on the root listener, without credentials; declined paths reach A2A as before', async () => {
    s = await startTestServer({ apiKeys: { k: 'alice' }, extraRoutes: page });
    const res = await fetch(`${s.url}/page/`); // one trailing slash is the same path
    expect([res.status, await res.text()]).toEqual([200, 'a page']);
    expect((await fetch(`${s.url}/.well-known/agent-card.json`)).status).toBe(200);
    const other = await fetch(`${s.url}/pages`);
    expect(other.status).toBe(404);
    expect(await other.json()).toMatchObject({ error: { message: 'Nothing is served at /pages' } });
  });

  it('are not routes of a mounted agent', async () => {
    s = await startTestServer({ extraRoutes: page, mountPath: '/agents/x' });
    expect((await fetch(`${s.url}/page`)).status).toBe(404);
    expect((await fetch(`${s.url}/agents/x/page`)).status).toBe(404);
  });
});
