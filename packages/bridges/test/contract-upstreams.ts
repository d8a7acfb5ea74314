import { FakeGateway, TOKEN } from './fake-openclaw.js';
import { FakeHermes } from './fake-hermes.js';
import { chatChunk, data, sendJson, sseHead, startFakeUpstream, writeFrames } from './fake-upstream.js';

/** The bridges the streaming contract covers. */
export const CONTRACT_BRIDGES = ['openai-chat', 'hermes-runs', 'openclaw-responses'] as const;
export type ContractBridge = (typeof CONTRACT_BRIDGES)[number];

/** The three fake upstreams of the contract, and each bridge's settings pointing at its own. */
export interface ContractUpstreams {
  readonly settings: Record<ContractBridge, Record<string, unknown>>;
  close(): Promise<void>;
}

/**
 * Starts one fake upstream per bridge (OpenAI chat completions, Hermes runs, an OpenClaw
 * gateway), all scripted alike by input text: `hello` → "Hel" + "lo"; `fail` → "Hel" then an
 * upstream failure; `empty` → no text at all (the non-streaming OpenAI call answers "Hello",
 * a 500 for `fail`, '' for `empty`). The contract tests drive the same inputs through every
 * bridge and binding, so the scripts must not differ between them: one copy here.
 */
export async function startContractUpstreams(keys: { readonly hermes: string; readonly openai: string }): Promise<ContractUpstreams> {
  const openai = await startFakeUpstream({
    'POST /v1/chat/completions': async (req, res) => {
      const input = req.body.messages.at(-1).content as string;
      if (!req.body.stream) {
        if (input === 'fail') return sendJson(res, 500, { error: { message: 'boom' } });
        return sendJson(res, 200, {
          choices: [{ index: 0, message: { role: 'assistant', content: input === 'empty' ? '' : 'Hello' }, finish_reason: 'stop' }],
        });
      }
      sseHead(res);
      if (input === 'hello') await writeFrames(res, [data(chatChunk('Hel')), data(chatChunk('lo')), data('[DONE]')]);
      if (input === 'fail') await writeFrames(res, [data(chatChunk('Hel')), data({ error: { message: 'boom' } })]);
      if (input === 'empty') await writeFrames(res, [data(chatChunk(undefined, 'stop')), data('[DONE]')]);
      res.end();
    },
  });
  const hermes = await new FakeHermes(keys.hermes).start();
  hermes.script = (input) =>
    input === 'hello'
      ? [
          { event: 'message.delta', delta: 'Hel' },
          { event: 'message.delta', delta: 'lo' },
          { event: 'run.completed', output: 'Hello' },
        ]
      : input === 'fail'
        ? [
            { event: 'message.delta', delta: 'Hel' },
            { event: 'run.failed', error: 'boom' },
          ]
        : [{ event: 'run.completed' }];
  const gateway = await new FakeGateway().start();
  gateway.answer = (input) => (input === 'hello' ? { deltas: ['Hel', 'lo'] } : input === 'fail' ? { deltas: ['Hel'], fail: 'boom' } : { deltas: [] });
  return {
    settings: {
      'openai-chat': { baseUrl: `${openai.url}/v1`, model: 'm', apiKey: keys.openai },
      'hermes-runs': { baseUrl: hermes.url, apiKey: keys.hermes },
      'openclaw-responses': { baseUrl: gateway.upstream.url, token: TOKEN },
    },
    async close() {
      await Promise.all([openai.close(), hermes.close(), gateway.upstream.close()]);
    },
  };
}
