/**
 * `examples/aws-lambda/invoke.mjs`, run as its README says (`node examples/aws-lambda/invoke.mjs`, on
 * the built packages): the buffered handler serves the card with the event's domain and a
 * JSON-RPC send, and the streaming handler writes a REST stream to the final event.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const ROOT = resolve(__dirname, '../../..');

describe('examples/aws-lambda/invoke.mjs', () => {
  it('prints the card, a completed SendMessage and a streamed message:stream', async () => {
    if (!existsSync(join(ROOT, 'packages/server/dist/index.js'))) throw new Error('the example runs on the built packages: run `npm run build` first');
    const { stdout } = await promisify(execFile)(process.execPath, [join(ROOT, 'examples/aws-lambda/invoke.mjs')], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '' },
      timeout: 15_000,
    });
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const call = (name: string) => lines.filter((l) => l.call === name);
    expect(call('card')[0]).toMatchObject({ statusCode: 200 });
    expect(call('card')[0].interfaces).toContain('JSONRPC https://abcdefghij.lambda-url.us-east-1.on.aws/a2a/rpc');
    expect(call('SendMessage')[0]).toEqual({ call: 'SendMessage', statusCode: 200, state: 'TASK_STATE_COMPLETED', answer: 'You said: hello lambda' });
    const streamed = call('stream chunk')
      .map((c) => c.text)
      .join('');
    expect(streamed).toContain('TASK_STATE_COMPLETED');
    expect(streamed).toContain('You said: hello stream');
    expect(call('message:stream')[0]).toMatchObject({ statusCode: 200, contentType: 'text/event-stream' });
    expect(call('message:stream')[0].events).toBeGreaterThanOrEqual(3);
  });
});
