import { silentLogger } from '@a2a-polyglot/core';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { json, postJson, rpc, userMessage, waitFor } from './helpers.js';

/**
 * The webhook policy as `npm start` applies it (issue 13): what registration refuses by
 * default, and that `push.allowPrivateNetworks` lets loopback receivers work while redirects
 * are still never followed. Only loopback receivers are ever called.
 */

const started: RunningExecutor[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function start(allowPrivateNetworks: boolean): Promise<RunningExecutor> {
  const running = await startExecutor(
    { host: '127.0.0.1', port: 0, demo: { chunkDelayMs: 0 }, shutdownGraceMs: 200, push: { allowPrivateNetworks } },
    { logger: silentLogger },
  );
  started.push(running);
  return running;
}

/** A loopback receiver recording each POST body; `answer` picks the status and headers. */
async function receiver(answer: () => [number, Record<string, string>?] = () => [204]) {
  const bodies: any[] = [];
  const server = createServer((req, res) => {
    let text = '';
    req.on('data', (chunk: Buffer) => (text += chunk.toString()));
    req.on('end', () => {
      bodies.push(JSON.parse(text));
      const [status, headers] = answer();
      res.writeHead(status, headers).end();
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { bodies, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

const completed = (bodies: any[]) =>
  bodies.some((b) => b.statusUpdate?.status?.state === 'TASK_STATE_COMPLETED' || b.task?.status?.state === 'TASK_STATE_COMPLETED');

async function createConfig(running: RunningExecutor, url: string): Promise<any> {
  const sent = await json(await postJson(`${running.url}/a2a/rpc`, rpc('SendMessage', { message: userMessage('hi') })));
  return json(await postJson(`${running.url}/a2a/rpc`, rpc('CreateTaskPushNotificationConfig', { taskId: sent.result.task.id, url })));
}

describe('webhooks on npm start', () => {
  it.each([
    ['http://[::ffff:127.0.0.1]:8080/hook', 'embeds 127.0.0.1 is loopback'],
    ['http://[::ffff:169.254.169.254]/latest', 'linkLocal'],
    ['http://[64:ff9b::7f00:1]/hook', 'loopback'],
    ['http://198.18.0.1/hook', 'reserved'],
    ['http://localhost./hook', 'localhost name'],
    ['http://a:b@hooks.example.com/hook', 'must not carry credentials'],
  ])('by default refuses %s at registration (InvalidParams on url: %s)', async (url, reason) => {
    const running = await start(false);
    const body = await createConfig(running, url);
    expect(body.error.code).toBe(-32602);
    expect(JSON.stringify(body.error)).toContain(reason);
    expect(JSON.stringify(body.error)).toContain('"field":"url"');
  });

  it('with push.allowPrivateNetworks delivers to a loopback receiver', async () => {
    const running = await start(true);
    const hook = await receiver();
    const res = await postJson(`${running.url}/a2a/message:send`, {
      message: userMessage('hi'),
      configuration: { taskPushNotificationConfig: { url: hook.url } },
    });
    expect(res.status).toBe(200);
    await waitFor(() => completed(hook.bodies));
  });

  it('with push.allowPrivateNetworks still does not follow a redirect', async () => {
    const running = await start(true);
    const target = await receiver();
    const redirector = await receiver(() => [307, { location: target.url }]);
    await postJson(`${running.url}/a2a/message:send`, { message: userMessage('hi'), configuration: { taskPushNotificationConfig: { url: redirector.url } } });
    // Deliveries to one webhook go in order, each (and any redirect it followed) before the next.
    await waitFor(() => completed(redirector.bodies));
    expect(target.bodies).toEqual([]);
  });
});
