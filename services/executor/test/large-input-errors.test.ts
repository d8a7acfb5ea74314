/**
 * Errors about large or deeply nested input, over the real HTTP bindings of both protocol
 * generations: an error quotes a short prefix of the culprit (a 3 MB role, kind or task id
 * made a 6 MB error body: message and field violation or metadata each held it whole), and a
 * v0.3 part `kind` nested 10,000 deep is InvalidParams, not a stack overflow (-32603 and a
 * stack trace in the log).
 */
import { recordingLogger } from '@a2a-polyglot/testing';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { rpc, userMessage, V1 } from './helpers.js';

const BIG = 'r'.repeat(3_000_000);
/** Small enough for the quoted prefix and a few fixed sentences, a thousandth of the input. */
const SMALL_BODY = 3000;
/** JSON text of `{"a":{"a":…"x"…}}` nested `levels` deep (JSON.stringify cannot build it). */
const nestedText = (levels: number) => `${'{"a":'.repeat(levels)}"x"${'}'.repeat(levels)}`;
/** Stands for a value nested 10,000 deep in a request body. */
const DEEP = '__deep__';

const logger = recordingLogger();
let running: RunningExecutor;
beforeAll(async () => {
  running = await startExecutor({ host: '127.0.0.1', port: 0, grpcPort: false, demo: { chunkDelayMs: 0 }, shutdownGraceMs: 200 }, { logger });
});
afterAll(() => running.close());

/** POSTs `body` (its {@link DEEP} replaced by a 10,000-level object) and returns status and text. */
async function post(path: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const text = JSON.stringify(body).replace(JSON.stringify(DEEP), nestedText(10_000));
  const res = await fetch(`${running.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json', ...headers }, body: text });
  return { status: res.status, text: await res.text() };
}

const v03Message = (over: Record<string, unknown>, part: unknown = { kind: 'text', text: 'hi' }) => ({
  kind: 'message',
  messageId: 'm',
  role: 'user',
  parts: [part],
  ...over,
});

describe('errors about large input quote a short prefix (both generations, JSON-RPC and REST)', () => {
  const cases: Array<[string, string, unknown, Record<string, string>, RegExp]> = [
    [
      'v1.0 JSON-RPC: a 3 MB role',
      '/a2a/rpc',
      rpc('SendMessage', { message: userMessage('hi', { role: BIG }) }),
      V1,
      /^-32602 .*Role value "r{64}… \(3000000 characters\)"/,
    ],
    ['v1.0 REST: a 3 MB role', '/a2a/message:send', { message: userMessage('hi', { role: BIG }) }, V1, /^400 .*Role value "r{64}…/],
    ['v1.0 JSON-RPC: a 3 MB task id', '/a2a/rpc', rpc('GetTask', { id: BIG }), V1, /^-32001 Task r{64}… \(3000000 characters\) not found$/],
    [
      'v1.0 JSON-RPC: a follow-up to a 3 MB task id',
      '/a2a/rpc',
      rpc('SendMessage', { message: userMessage('hi', { taskId: BIG }) }),
      V1,
      /^-32001 Task r{64}…/,
    ],
    ['v1.0 JSON-RPC: a 3 MB timestamp', '/a2a/rpc', rpc('ListTasks', { statusTimestampAfter: BIG }), V1, /^-32602 .*got "r{64}…/],
    ['v1.0 JSON-RPC: a 3 MB integer string', '/a2a/rpc', rpc('GetTask', { id: 'x', historyLength: BIG }), V1, /^-32602 .*got the string "r{64}…/],
    ['v1.0 JSON-RPC: a 3 MB method name', '/a2a/rpc', rpc(BIG, {}), V1, /^-32601 Method r{64}… \(3000000 characters\) not found$/],
    [
      'v1.0 JSON-RPC: a 3 MB metadata key over too deep a value',
      '/a2a/rpc',
      rpc('SendMessage', { message: userMessage('hi', { metadata: { [BIG]: DEEP } }) }),
      V1,
      /^-32602 .*message\.metadata\.r{64}… \(3000000 characters\)(\.a)+: nesting exceeds/,
    ],
    [
      'v0.3 JSON-RPC: a 3 MB part kind',
      '/a2a/rpc',
      rpc('message/send', { message: v03Message({}, { kind: BIG }) }),
      {},
      /^-32602 .*\(got "r{64}… \(3000000 characters\)"\)$/,
    ],
    ['v0.3 JSON-RPC: a 3 MB task id', '/a2a/rpc', rpc('tasks/get', { id: BIG }), {}, /^-32001 Task r{64}…/],
    [
      'v0.3 REST: a 3 MB role',
      '/a2a/v1/message:send',
      { message: { messageId: 'v', role: BIG, content: [{ text: 'x' }] } },
      {},
      /^-32602 .*Role value "r{64}…/,
    ],
    [
      'v0.3 REST: a 3 MB task id',
      '/a2a/v1/message:send',
      { message: { messageId: 'v', role: 'ROLE_USER', taskId: BIG, content: [{ text: 'x' }] } },
      {},
      /^-32001 Task r{64}…/,
    ],
  ];

  it.each(cases)('%s', async (_name, path, body, headers, expected) => {
    const { text } = await post(path, body, headers);
    expect(text.length).toBeLessThan(SMALL_BODY);
    const answer = JSON.parse(text);
    const error = answer.error ?? answer;
    expect(`${error.code} ${error.message}`).toMatch(expected);
  });
});

describe('a v0.3 part kind nested 10,000 deep', () => {
  it('is InvalidParams (-32602) naming the member, with nothing logged as an error', async () => {
    const errorsBefore = logger.messages('error').length;
    const { status, text } = await post('/a2a/rpc', rpc('message/send', { message: v03Message({}, { kind: DEEP }) }));
    expect(status).toBe(200);
    expect(JSON.parse(text).error).toMatchObject({
      code: -32602,
      message: 'Invalid parameters: message.parts[0].kind: must be text, file or data (got an object)',
    });
    expect(logger.messages('error').slice(errorsBefore)).toEqual([]);
  });
});
