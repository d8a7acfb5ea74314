import { recordingLogger, webhookReceiver } from '@a2a-polyglot/testing';
import { TaskState, type StreamResponse, type TaskPushNotificationConfig } from '@a2a-polyglot/model';
import { HttpPushSender, silentLogger } from '../src/index.js';

/**
 * The core's default push sender over `fetch` (the network of fetch runtimes, no DNS
 * pinning), against real receivers on loopback: what the receiver gets, the URL policy still
 * refusing loopback by default, redirects returned and not followed, and the timeout.
 */

const event: StreamResponse = {
  payload: {
    $case: 'statusUpdate',
    value: { taskId: 't1', contextId: 'c', status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined }, metadata: undefined },
  },
};
const configFor = (url: string): TaskPushNotificationConfig => ({
  tenant: '',
  id: 'c1',
  taskId: 't1',
  url,
  token: 'tok',
  authentication: { scheme: 'Bearer', credentials: 'secret' },
});

describe('HttpPushSender over fetch (the default transport)', () => {
  it('POSTs the v1.0 body with the auth and token headers to a receiver allowed by allowPrivateNetworks', async () => {
    const hook = await webhookReceiver();
    try {
      const outcome = await new HttpPushSender({ allowPrivateNetworks: true }).send(configFor(`${hook.url}?x=1`), event);
      expect(outcome).toBe('delivered');
      expect(hook.received).toHaveLength(1);
      const [got] = hook.received;
      expect(got).toMatchObject({ method: 'POST', url: '/hook?x=1', host: `127.0.0.1:${hook.port}` });
      expect(got?.headers).toMatchObject({ 'content-type': 'application/a2a+json', authorization: 'Bearer secret', 'x-a2a-notification-token': 'tok' });
      expect(JSON.parse(got?.body ?? '')).toMatchObject({ statusUpdate: { taskId: 't1', status: { state: 'TASK_STATE_WORKING' } } });
    } finally {
      await hook.close();
    }
  });

  it('leaves a host name to the runtime to resolve (no resolver, no pinning): localhost reaches the receiver when allowed', async () => {
    const hook = await webhookReceiver();
    try {
      const outcome = await new HttpPushSender({ allowPrivateNetworks: true }).send(configFor(`http://localhost:${hook.port}/hook`), event);
      expect(outcome).toBe('delivered');
      expect(hook.received.map((r) => r.host)).toEqual([`localhost:${hook.port}`]);
    } finally {
      await hook.close();
    }
  });

  it('still applies the URL policy: loopback literals and localhost names are refused by default, before any connection', async () => {
    const hook = await webhookReceiver();
    const logger = recordingLogger();
    try {
      const sender = new HttpPushSender({ logger, attempts: 3, backoffMs: 1 });
      await expect(sender.send(configFor(hook.url), event)).resolves.toBe('refused');
      await expect(sender.send(configFor(`http://localhost:${hook.port}/hook`), event)).resolves.toBe('refused');
      expect(hook.received).toHaveLength(0);
      expect(logger.lines.filter((l) => l.level === 'warn').map((l) => l.msg)).toEqual(['push delivery refused', 'push delivery refused']);
    } finally {
      await hook.close();
    }
  });

  it.each([301, 302, 303, 307, 308])('returns a %i as the answer instead of following it (rejected, not retried)', async (status) => {
    const target = await webhookReceiver();
    const redirector = await webhookReceiver((res) => res.writeHead(status, { location: target.url }).end());
    try {
      const outcome = await new HttpPushSender({ allowPrivateNetworks: true, attempts: 3, backoffMs: 1, logger: silentLogger }).send(
        configFor(redirector.url),
        event,
      );
      expect(outcome).toBe('rejected');
      expect(redirector.received).toHaveLength(1);
      expect(target.received).toHaveLength(0);
    } finally {
      await Promise.all([target.close(), redirector.close()]);
    }
  });

  it('gives an attempt up at timeoutMs when the receiver never answers', async () => {
    const hook = await webhookReceiver(() => undefined);
    const logger = recordingLogger();
    try {
      const outcome = await new HttpPushSender({ allowPrivateNetworks: true, timeoutMs: 50, attempts: 1, logger }).send(configFor(hook.url), event);
      expect(outcome).toBe('failed');
      expect(hook.received).toHaveLength(1);
      const errors = logger.lines.filter((l) => l.msg === 'push delivery error').map((l) => String(l.fields?.err));
      expect(errors).toEqual([expect.stringMatching(/timeout|aborted/i)]);
    } finally {
      await hook.close();
    }
  });
});
