import { once } from 'node:events';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RequestHandler } from '@a2a-polyglot/core';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import { a2aFastifyPlugin, createA2ARequestListener } from '../src/index.js';
import { Gates, postRaw, readSse, rest, rpc, rpcStream, scriptedAgent, sendParams, testCard, V } from './helpers.js';

const LIMIT = 4096;
const iface = (card: any, binding: string) => card.supportedInterfaces.find((i: any) => i.protocolBinding === binding)?.url;

interface Mounted {
  /** The app's origin, e.g. `http://127.0.0.1:1234`. */
  readonly url: string;
  close(): Promise<void>;
}

function handlerNamed(name: string): RequestHandler {
  return new RequestHandler({ card: testCard({ name }), executor: scriptedAgent(new Gates()) });
}

async function expressApp(handler: RequestHandler): Promise<Mounted> {
  const app = express();
  app.use(express.json({ limit: '1mb' }));
  app.use('/agent', createA2ARequestListener({ handler, maxBodyBytes: LIMIT }));
  app.get('/agent/hello', (_req, res) => {
    res.json({ hello: 'from the app under the mount' });
  });
  app.get('/hello', (_req, res) => {
    res.json({ hello: 'from the app' });
  });
  const server: Server = app.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      await handler.shutdown(100);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

async function fastifyApp(handler: RequestHandler): Promise<Mounted> {
  const app: FastifyInstance = Fastify();
  await app.register(a2aFastifyPlugin, { prefix: '/agent', handler, maxBodyBytes: LIMIT });
  app.get('/agent/hello', async () => ({ hello: 'from the app under the mount' }));
  app.get('/hello', async () => ({ hello: 'from the app' }));
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: address,
    close: async () => {
      await handler.shutdown(100);
      app.server.closeAllConnections();
      await app.close();
    },
  };
}

describe.each([
  ['Express 5', expressApp],
  ['Fastify 5', fastifyApp],
])('%s: the listener mounted under /agent', (name, start) => {
  let app: Mounted;
  let agent: string;

  beforeAll(async () => {
    app = await start(handlerNamed(`${name} agent`));
    agent = `${app.url}/agent`;
  });
  afterAll(async () => {
    await app.close();
  });

  it('serves the card with URLs that include the mount path', async () => {
    const res = await fetch(`${agent}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    const card: any = await res.json();
    expect(card.name).toBe(`${name} agent`);
    expect(iface(card, 'JSONRPC')).toBe(`${agent}/a2a/rpc`);
    expect(iface(card, 'HTTP+JSON')).toBe(`${agent}/a2a`);
  });

  it('answers JSON-RPC SendMessage sent as application/json', async () => {
    const sent = await rpc(`${agent}/a2a/rpc`, 'SendMessage', sendParams('hello json-rpc'));
    expect(sent.status).toBe(200);
    expect(sent.body.error).toBeUndefined();
    expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it.each(['application/a2a+json', 'application/json'])('answers REST POST /agent/a2a/message:send (%s)', async (type) => {
    const sent = await rest(`${agent}/a2a`, 'POST', '/message:send', sendParams('hello rest'), { ...V, 'content-type': type });
    expect(sent.status).toBe(200);
    expect(sent.body.task.status.state).toBe('TASK_STATE_COMPLETED');
    const read = await rest(`${agent}/a2a`, 'GET', `/tasks/${sent.body.task.id}`);
    expect(read.status).toBe(200);
  });

  it('streams JSON-RPC SendStreamingMessage as SSE', async () => {
    const res = await rpcStream(`${agent}/a2a/rpc`, 'SendStreamingMessage', sendParams('steps 2'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const read = await readSse(res);
    const results = read.events.map((e) => JSON.parse(e.data).result);
    expect(results.filter((r) => r.artifactUpdate)).toHaveLength(2);
    expect(results.at(-1).statusUpdate.status.state).toBe('TASK_STATE_COMPLETED');
  });

  it('leaves the app its own routes, under the mount path and beside it', async () => {
    for (const path of ['/agent/hello', '/hello']) {
      const res = await fetch(`${app.url}${path}`, { headers: { origin: 'https://elsewhere.example' } });
      expect(res.status).toBe(200);
      expect(((await res.json()) as any).hello).toMatch(/^from the app/);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
    }
  });

  it('answers a body over the limit with 413 (JSON-RPC) and the binding error (REST), not a hang', async () => {
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendMessage', params: sendParams('x'.repeat(2 * LIMIT)) });
    const tooBig = await postRaw(`${agent}/a2a/rpc`, big, { 'content-type': 'application/json', ...V });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.error).toBeDefined();
    const restBig = await postRaw(`${agent}/a2a/message:send`, JSON.stringify(sendParams('y'.repeat(2 * LIMIT))), {
      'content-type': 'application/a2a+json',
      ...V,
    });
    expect(restBig.status).toBe(413);
    // Chunked (no Content-Length): Express's parser read it, the listener measures what it parsed.
    const chunked = await fetch(`${agent}/a2a/rpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...V },
      body: new Blob([big]).stream(),
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    // The server still answers afterwards.
    expect((await rpc(`${agent}/a2a/rpc`, 'SendMessage', sendParams('after the big one'))).status).toBe(200);
  });
});

describe('Express 5: more than one level of mounting', () => {
  it('builds card URLs from the whole mount path of a nested router', async () => {
    const handler = handlerNamed('nested agent');
    const app = express();
    const router = express.Router();
    router.use('/agent', createA2ARequestListener({ handler }));
    app.use('/team', router);
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const card: any = await (await fetch(`${base}/team/agent/.well-known/agent-card.json`)).json();
      expect(iface(card, 'JSONRPC')).toBe(`${base}/team/agent/a2a/rpc`);
      const sent = await rpc(`${base}/team/agent/a2a/rpc`, 'SendMessage', sendParams('nested'));
      expect(sent.body.result.task.status.state).toBe('TASK_STATE_COMPLETED');
      expect((await fetch(`${base}/team/agent/nothing-here`)).status).toBe(404);
    } finally {
      await handler.shutdown(100);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});

describe('Express 5: a root listener with extraRoutes', () => {
  it('serves its extra routes and hands other paths on without the headers it set', async () => {
    const handler = handlerNamed('extra agent');
    const app = express();
    app.use(
      createA2ARequestListener({
        handler,
        extraRoutes: async (_req, res, path) => {
          if (path !== '/extra') return false;
          res.end('extra');
          return true;
        },
      }),
    );
    app.get('/mine', (_req, res) => {
      res.send('mine');
    });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const extra = await fetch(`${base}/extra`);
      expect(await extra.text()).toBe('extra');
      expect(extra.headers.get('x-content-type-options')).toBe('nosniff');
      const mine = await fetch(`${base}/mine`);
      expect(mine.status).toBe(200);
      expect(await mine.text()).toBe('mine');
      expect(mine.headers.get('x-content-type-options')).toBeNull();
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
    } finally {
      await handler.shutdown(100);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
