import { TaskState, type StreamResponse } from '@a2a-polyglot/model';
import type { StoredPushConfig } from '../src/push/push-config-store.js';
import { DefaultPushSender } from '../src/push/default-push-sender.js';
import type { WebhookNetwork } from '../src/push/webhook-transport.js';

/**
 * Which network the handler's default sender uses: the one the options give, else the first
 * the serving entry point offers, else fetch; an offer after the first delivery changes nothing.
 */

const config: StoredPushConfig = { tenant: '', id: 'c1', taskId: 't1', url: 'https://hooks.example.com/a2a', token: '', authentication: undefined };
const event: StreamResponse = {
  payload: {
    $case: 'statusUpdate',
    value: { taskId: 't1', contextId: 'c', status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined }, metadata: undefined },
  },
};

/** A network that records its name on each POST and resolves the host to a public address. */
function network(name: string, used: string[]): WebhookNetwork {
  return { resolve: async () => [{ address: '93.184.216.34', family: 4 }], transport: async () => (used.push(name), 204) };
}

describe('DefaultPushSender', () => {
  it('uses the network the options give, whatever is offered later', async () => {
    const used: string[] = [];
    const sender = new DefaultPushSender({}, network('options', used));
    sender.offer(network('offered', used));
    await expect(sender.send(config, event)).resolves.toBe('delivered');
    expect(used).toEqual(['options']);
  });

  it('without one, uses the first network offered', async () => {
    const used: string[] = [];
    const sender = new DefaultPushSender({});
    sender.offer(network('first', used));
    sender.offer(network('second', used));
    await sender.send(config, event);
    expect(used).toEqual(['first']);
  });

  it('keeps the network of its first delivery: a later offer is ignored', async () => {
    const used: string[] = [];
    const fetchSpy = jest.spyOn(globalThis, 'fetch').mockImplementation(async () => (used.push('fetch'), new Response(null, { status: 204 })));
    try {
      const sender = new DefaultPushSender({});
      await expect(sender.send(config, event)).resolves.toBe('delivered');
      sender.offer(network('late', used));
      await sender.send(config, event);
      expect(used).toEqual(['fetch', 'fetch']);
    } finally {
      fetchSpy.mockRestore();
    }
  });
});
