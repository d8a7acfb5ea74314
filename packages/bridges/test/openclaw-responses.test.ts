import { Message } from '@a2a-polyglot/model';
import { bridged, ctx, lastStatusText, send, streamJson, trace, type Bridged } from './a2a-side.js';
import { FakeGateway, TOKEN } from './fake-openclaw.js';

let gateway: FakeGateway;
let agent: Bridged;
beforeEach(async () => {
  gateway = await new FakeGateway().start();
});
afterEach(async () => {
  await agent?.close();
  await gateway.upstream.close();
});
const start = async (settings: Record<string, unknown> = {}) =>
  (agent = await bridged('openclaw-responses', { baseUrl: gateway.upstream.url, token: TOKEN, ...settings }));

describe('openclaw-responses bridge', () => {
  it('streams output_text deltas as text-delta chunks and completes on response.completed', async () => {
    gateway.answer = () => ({ deltas: ['Hi ', 'there'] });
    await start({ agentId: 'main' });
    const events = await streamJson(agent.handler, send('hello'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'chunk:"Hi "', 'chunk:"there"+!', 'status:COMPLETED']);
    const [call] = gateway.calls();
    expect(call!.body).toMatchObject({ model: 'openclaw/main', input: 'hello', stream: true });
    expect(call!.headers['x-openclaw-agent-id']).toBe('main');
    expect(call!.body.user).toMatch(/^a2a-[0-9a-f]{32}$/);
  });

  it('selects the agent by the x-openclaw-agent-id header or the model field', async () => {
    await start({ agentId: 'ops', agentHeader: false });
    const viaModel = await agent.handler.sendMessage(send('a'), ctx());
    expect(Message.toJSON((viaModel.payload as any).value)).toMatchObject({ parts: [{ text: expect.stringMatching(/^\[ops\] you said a/) }] });
    expect(gateway.calls()[0]!.headers['x-openclaw-agent-id']).toBeUndefined();
    await agent.close();
    await start({ agentId: 'research', model: 'openclaw' });
    const viaHeader = await agent.handler.sendMessage(send('b'), ctx());
    expect(gateway.calls()[1]!.body.model).toBe('openclaw');
    expect(Message.toJSON((viaHeader.payload as any).value)).toMatchObject({ parts: [{ text: expect.stringMatching(/^\[research\] you said b/) }] });
  });

  it('non-streaming sends get one agent message; request body has stream false', async () => {
    gateway.answer = () => ({ deltas: ['whole ', 'reply'] });
    await start();
    const res = await agent.handler.sendMessage(send('x'), ctx());
    expect(Message.toJSON((res.payload as any).value)).toMatchObject({ role: 'ROLE_AGENT', parts: [{ text: 'whole reply' }] });
    expect(gateway.calls()[0]!.body.stream).toBe(false);
  });

  it('maps a contextId to one gateway session: same user key, and previous_response_id chains the calls', async () => {
    await start();
    await agent.handler.sendMessage(send('one', { contextId: 'conv-1' }), ctx());
    await streamJson(agent.handler, send('two', { contextId: 'conv-1' }));
    await agent.handler.sendMessage(send('elsewhere', { contextId: 'conv-2' }), ctx());
    const [c1, c2, c3] = gateway.calls();
    expect(c1!.body.previous_response_id).toBeUndefined();
    expect(c2!.body.user).toBe(c1!.body.user);
    expect(gateway.responses.get(c2!.body.previous_response_id)).toBe(`user:${c1!.body.user}`);
    expect(c3!.body.user).not.toBe(c1!.body.user);
    expect(c3!.body.previous_response_id).toBeUndefined();
  });

  it('continues without previous_response_id when the gateway forgot it (404)', async () => {
    await start({ continuity: 'previous_response_id' });
    await agent.handler.sendMessage(send('one', { contextId: 'c' }), ctx());
    gateway.responses.clear();
    const res = await agent.handler.sendMessage(send('two', { contextId: 'c' }), ctx());
    expect(Message.toJSON((res.payload as any).value)).toMatchObject({ parts: [{ text: expect.stringContaining('you said two') }] });
    expect(gateway.calls().map((c) => c.body.previous_response_id === undefined)).toEqual([true, false, true]);
    expect(gateway.calls()[0]!.body.user).toBeUndefined();
  });

  it('treats the first terminal event as final: response.failed after partial text keeps chunks and fails', async () => {
    gateway.answer = () => ({ deltas: ['partial'], fail: 'model overloaded' });
    await start();
    const events = await streamJson(agent.handler, send('x'));
    expect(trace(events)).toEqual(['task:SUBMITTED', 'status:WORKING', 'chunk:"partial"', 'status:FAILED']);
    expect(lastStatusText(events)).toBe('The openclaw-responses upstream run failed: model overloaded');
  });

  it('a failed non-streaming response is "A2A request failed." and logged', async () => {
    gateway.answer = () => ({ deltas: [], fail: 'internal error' });
    await start();
    const res = await agent.handler.sendMessage(send('x'), ctx());
    expect(Message.toJSON((res.payload as any).value)).toMatchObject({ parts: [{ text: 'A2A request failed.' }] });
    expect(agent.logger.text()).toContain('HTTP 500: internal error');
    expect(agent.logger.text()).not.toContain(TOKEN);
  });
});
