import { RequestHandler } from '@a2a-polyglot/core';
import { API_CATALOG_MEDIA_TYPE, AgentMounts, startA2AServer, type RunningA2AServer } from '../src/index.js';
import { Gates, testCard, scriptedAgent } from './helpers.js';

const handlerNamed = (name: string) => new RequestHandler({ card: testCard({ name }), executor: scriptedAgent(new Gates()) });

const started: RunningA2AServer[] = [];
const handlers: RequestHandler[] = [];
afterEach(async () => {
  await Promise.all(handlers.splice(0).map((h) => h.shutdown(100)));
  await Promise.all(started.splice(0).map((s) => s.close()));
});

async function serve(options: Omit<Parameters<typeof startA2AServer>[0], 'handler'> & { handler: RequestHandler }): Promise<RunningA2AServer> {
  const running = await startA2AServer(options);
  started.push(running);
  return running;
}

function named(name: string): RequestHandler {
  const handler = handlerNamed(name);
  handlers.push(handler);
  return handler;
}

/** Every `service-desc` of the catalog, fetched: the card names found there, by anchor. */
async function describedAgents(catalog: any): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  for (const entry of catalog.linkset) {
    for (const link of entry['service-desc'] ?? []) found[entry.anchor] = ((await (await fetch(link.href)).json()) as any).name;
  }
  return found;
}

describe('/agents on a server without mounts', () => {
  it('lists the one agent it serves, at the root', async () => {
    const running = await serve({ handler: named('solo agent'), agentIndexPath: '/agents', publicBaseUrl: 'https://solo.example.com' });
    const res = await fetch(`${running.url}/agents`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({
      agents: [{ id: '', name: 'solo agent', cardUrl: 'https://solo.example.com/.well-known/agent-card.json', default: true }],
    });
  });

  it('is not served unless asked for', async () => {
    const running = await serve({ handler: named('solo agent') });
    expect((await fetch(`${running.url}/agents`)).status).toBe(404);
    expect((await fetch(`${running.url}/.well-known/api-catalog`)).status).toBe(404);
  });
});

describe('/.well-known/api-catalog (RFC 9727)', () => {
  it('without mounts: a linkset naming the root API, its card as service-desc; HEAD answers the Link header', async () => {
    const running = await serve({ handler: named('solo agent'), apiCatalog: true });
    const res = await fetch(`${running.url}/.well-known/api-catalog`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"');
    expect(res.headers.get('link')).toBe(`<${running.url}/.well-known/api-catalog>; rel="api-catalog"`);
    expect(res.headers.get('vary')).toBe('Host');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    const catalog = await res.json();
    expect(catalog).toEqual({
      linkset: [
        { anchor: `${running.url}/.well-known/api-catalog`, item: [{ href: `${running.url}/a2a`, title: 'solo agent' }] },
        {
          anchor: `${running.url}/a2a`,
          'service-desc': [{ href: `${running.url}/.well-known/agent-card.json`, type: 'application/json', title: 'solo agent' }],
        },
      ],
    });
    expect(await describedAgents(catalog)).toEqual({ [`${running.url}/a2a`]: 'solo agent' });

    const head = await fetch(`${running.url}/.well-known/api-catalog`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe(API_CATALOG_MEDIA_TYPE);
    expect(head.headers.get('link')).toBe(`<${running.url}/.well-known/api-catalog>; rel="api-catalog"`);
    expect(await head.text()).toBe('');

    const post = await fetch(`${running.url}/.well-known/api-catalog`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, HEAD');
  });

  it('with mounts: the root API, then every mounted one (its own basePath), each pointing at its own card; follows table changes', async () => {
    const table = new AgentMounts([
      { handler: named('alpha agent'), mountPath: '/agents/alpha' },
      { handler: named('beta agent'), mountPath: '/agents/beta', basePath: '/v1' },
    ]);
    const running = await serve({ handler: named('root agent'), mounts: table, agentIndexPath: '/agents', apiCatalog: true });
    const catalog: any = await (await fetch(`${running.url}/.well-known/api-catalog/`)).json();
    expect(catalog.linkset[0]).toEqual({
      anchor: `${running.url}/.well-known/api-catalog`,
      item: [
        { href: `${running.url}/a2a`, title: 'root agent' },
        { href: `${running.url}/agents/alpha/a2a`, title: 'alpha agent' },
        { href: `${running.url}/agents/beta/v1`, title: 'beta agent' },
      ],
    });
    expect(await describedAgents(catalog)).toEqual({
      [`${running.url}/a2a`]: 'root agent',
      [`${running.url}/agents/alpha/a2a`]: 'alpha agent',
      [`${running.url}/agents/beta/v1`]: 'beta agent',
    });

    await table.remove('/agents/alpha');
    const after: any = await (await fetch(`${running.url}/.well-known/api-catalog`)).json();
    expect(after.linkset.map((entry: any) => entry.anchor)).toEqual([
      `${running.url}/.well-known/api-catalog`,
      `${running.url}/a2a`,
      `${running.url}/agents/beta/v1`,
    ]);
  });
});
