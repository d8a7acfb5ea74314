import { testAgentCard, userSend } from '@a2a-polyglot/testing';
import { A2AErrorCode, ApiKeyAuthenticator, callContext, RequestHandler, silentLogger, type AgentExecutor } from '../src/index.js';

/**
 * `unavailable`: a handler that stands in for an agent its host could not build refuses every
 * operation with Unavailable and the reason, only after authentication (an unauthenticated
 * caller does not read the reason), and never runs its executor. Its card is still served.
 */

const ctx = (key?: string) => callContext('IN-PROCESS', { 'a2a-version': '1.0', ...(key && { 'x-api-key': key }) });
const never: AgentExecutor = {
  execute: () => {
    throw new Error('the executor of an unavailable agent ran');
  },
};
const reason = 'Agent module /srv/x.js is outside agentRegistry.moduleDirs';
const card = testAgentCard({ capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true, extensions: [] } });

describe('RequestHandler option unavailable', () => {
  const handler = new RequestHandler({ card, executor: never, unavailable: reason, logger: silentLogger });

  it.each([
    ['sendMessage', () => handler.sendMessage(userSend('hi'), ctx())],
    ['sendStreamingMessage', () => handler.sendStreamingMessage(userSend('hi'), ctx())],
    ['getTask', () => handler.getTask({ tenant: '', id: 't', historyLength: undefined }, ctx())],
    ['listTasks', () => handler.listTasks({ tenant: '' } as never, ctx())],
    ['cancelTask', () => handler.cancelTask({ tenant: '', id: 't', metadata: undefined }, ctx())],
    ['subscribeToTask', () => handler.subscribeToTask({ tenant: '', id: 't' }, ctx())],
    ['getTaskPushNotificationConfig', () => handler.getTaskPushNotificationConfig({ tenant: '', taskId: 't', id: 'c' }, ctx())],
    ['getExtendedAgentCard', () => handler.getExtendedAgentCard({ tenant: '' }, ctx())],
  ])('%s answers Unavailable with the reason', async (_name, call) => {
    await expect(call()).rejects.toMatchObject({ code: A2AErrorCode.Unavailable, message: reason });
  });

  it('authenticates first (a caller without credentials gets Unauthenticated, not the reason) and still serves its card', async () => {
    const guarded = new RequestHandler({
      card,
      executor: never,
      unavailable: reason,
      authenticator: new ApiKeyAuthenticator({ keys: { ka: 'alice' } }),
      logger: silentLogger,
    });
    await expect(guarded.sendMessage(userSend('hi'), ctx())).rejects.toMatchObject({ code: A2AErrorCode.Unauthenticated });
    await expect(guarded.sendMessage(userSend('hi'), ctx('ka'))).rejects.toMatchObject({ code: A2AErrorCode.Unavailable, message: reason });
    expect(guarded.getAgentCard().name).toBe(card.name);
  });
});
