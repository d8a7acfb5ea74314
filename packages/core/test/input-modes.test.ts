import type { AgentSkill, Part } from '@a2a-polyglot/model';
import { testAgentCard, userSend } from '@a2a-polyglot/testing';
import { A2AErrorCode, callContext, RequestHandler, type AgentExecutor, type RequestHandlerOptions } from '../src/index.js';

const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' });
const part = (content: Part['content'], mediaType = ''): Part => ({ content, metadata: undefined, filename: '', mediaType });
const text = (value: string, mediaType = '') => part({ $case: 'text', value }, mediaType);
const data = (value: unknown) => part({ $case: 'data', value });
const file = (mediaType: string) => part({ $case: 'raw', value: new Uint8Array([1, 2, 3]) }, mediaType);
const link = (mediaType: string) => part({ $case: 'url', value: 'https://files.example/x' }, mediaType);
const skill = (inputModes: string[]): AgentSkill => ({
  id: 's',
  name: 's',
  description: 's',
  tags: [],
  examples: [],
  inputModes,
  outputModes: [],
  securityRequirements: [],
});

/** A handler whose agent counts its runs: a refused message must not reach it. */
function handlerWith(defaultInputModes: string[], options: Partial<RequestHandlerOptions> = {}) {
  const runs: string[] = [];
  const executor: AgentExecutor = {
    async execute(c) {
      runs.push(c.message.messageId);
      c.complete('ok');
    },
  };
  const handler = new RequestHandler({ card: testAgentCard({ defaultInputModes, skills: [] }), executor, ...options });
  return { handler, runs };
}

const send = (...parts: Part[]) => userSend('', { message: { parts } });
const refused = { code: A2AErrorCode.ContentTypeNotSupported };

describe('input modes: parts the card does not accept are refused before the agent runs', () => {
  it('a data part to a text/plain agent is ContentTypeNotSupported, on SendMessage and SendStreamingMessage, and the agent never runs', async () => {
    const { handler, runs } = handlerWith(['text/plain']);
    await expect(handler.sendMessage(send(text('hi'), data({ a: 1 })), ctx())).rejects.toMatchObject({
      ...refused,
      message: expect.stringContaining('message.parts[1] is application/json'),
    });
    await expect(handler.sendStreamingMessage(send(data({ a: 1 })), ctx())).rejects.toMatchObject(refused);
    expect(runs).toEqual([]);
    expect(handler.activeRuns).toBe(0);
  });

  it('each kind has its media type: text is text/plain, data application/json, an untyped file application/octet-stream', async () => {
    const { handler } = handlerWith(['application/json']);
    await expect(handler.sendMessage(send(data([1])), ctx())).resolves.toBeDefined();
    await expect(handler.sendMessage(send(text('hi')), ctx())).rejects.toMatchObject({ message: expect.stringContaining('is text/plain') });
    await expect(handler.sendMessage(send(file('')), ctx())).rejects.toMatchObject({ message: expect.stringContaining('is application/octet-stream') });
    await expect(handler.sendMessage(send(link('')), ctx())).rejects.toMatchObject(refused);
  });

  it("a part's own mediaType decides, parameters ignored, case-insensitive", async () => {
    const { handler } = handlerWith(['text/plain', 'image/png']);
    await expect(handler.sendMessage(send(file('IMAGE/PNG')), ctx())).resolves.toBeDefined();
    await expect(handler.sendMessage(send(text('x', 'text/plain; charset=utf-8')), ctx())).resolves.toBeDefined();
    await expect(handler.sendMessage(send(text('# x', 'text/markdown')), ctx())).rejects.toMatchObject(refused);
    await expect(handler.sendMessage(send(link('image/jpeg')), ctx())).rejects.toMatchObject(refused);
  });

  it('wildcard modes: type/* takes that type, */* takes anything, even untyped files', async () => {
    const images = handlerWith(['image/*']).handler;
    await expect(images.sendMessage(send(file('image/webp')), ctx())).resolves.toBeDefined();
    await expect(images.sendMessage(send(file('application/pdf')), ctx())).rejects.toMatchObject(refused);
    const any = handlerWith(['*/*']).handler;
    await expect(any.sendMessage(send(file(''), data({}), text('x')), ctx())).resolves.toBeDefined();
  });

  it('a part claiming a wildcard type is not thereby accepted', async () => {
    const { handler } = handlerWith(['image/png']);
    await expect(handler.sendMessage(send(file('*/*')), ctx())).rejects.toMatchObject(refused);
  });

  it("any skill's inputModes count beside the card's defaults", async () => {
    const runs: string[] = [];
    const handler = new RequestHandler({
      card: testAgentCard({ defaultInputModes: ['text/plain'], skills: [skill(['application/pdf'])] }),
      executor: {
        async execute(c) {
          runs.push(c.message.messageId);
          c.complete('ok');
        },
      },
    });
    await expect(handler.sendMessage(send(text('summarise'), file('application/pdf')), ctx())).resolves.toBeDefined();
    await expect(handler.sendMessage(send(data({})), ctx())).rejects.toMatchObject(refused);
    expect(runs).toHaveLength(1);
  });

  it('follow-ups to an input-required task are checked too', async () => {
    const executor: AgentExecutor = {
      async execute(c) {
        if (c.task) c.complete('thanks');
        else c.requireInput('more?');
      },
    };
    const handler = new RequestHandler({ card: testAgentCard({ defaultInputModes: ['text/plain'] }), executor });
    const first = await handler.sendMessage(userSend('start'), ctx());
    const taskId = (first.payload!.value as { id: string }).id;
    await expect(handler.sendMessage(userSend('', { taskId, message: { parts: [data({ answer: 1 })] } }), ctx())).rejects.toMatchObject(refused);
  });

  it('acceptAnyInputMode lets every part through; a card that declares no input mode states nothing and is not checked', async () => {
    const open = handlerWith(['text/plain'], { acceptAnyInputMode: true });
    await expect(open.handler.sendMessage(send(data({ a: 1 }), file('application/zip')), ctx())).resolves.toBeDefined();
    expect(open.runs).toHaveLength(1);
    const silent = handlerWith([]);
    await expect(silent.handler.sendMessage(send(data({ a: 1 })), ctx())).resolves.toBeDefined();
  });
});
