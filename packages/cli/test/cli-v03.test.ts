/**
 * `a2a` against an A2A v0.3 server: the official @a2a-js/sdk 0.3.14 server (see the client's
 * sdk-v03-server.ts). The card says v0.3, so the CLI speaks it without being told.
 */
import { startSdkV03Server, type SdkV03Server } from '../../client/test/sdk-v03-server.js';
import { a2a } from './helpers.js';

jest.setTimeout(60_000);

let server: SdkV03Server;
beforeAll(async () => {
  server = await startSdkV03Server();
});
afterAll(async () => {
  await server?.close();
});

describe('a2a → @a2a-js/sdk 0.3.14 server', () => {
  it('card: the v0.3 interfaces, marked 0.3', async () => {
    const run = await a2a(['card', server.url]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/1\. JSONRPC\s+0\.3\s+http:\/\/127\.0\.0\.1:\d+\/rpc/);
  });

  it('send URL hi: streams the answer to completion', async () => {
    const run = await a2a(['send', server.url, 'hi']);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('chunk 0\n');
    expect(run.stderr).toMatch(/completed\n$/);
  });

  it('send --no-stream, and a direct message', async () => {
    const blocking = await a2a(['send', server.url, 'steps 2', '--no-stream']);
    expect(blocking.code).toBe(0);
    expect(blocking.stdout).toBe('chunk 0\nchunk 1\n');
    const echo = await a2a(['send', server.url, 'echo hello there']);
    expect(echo.code).toBe(0);
    expect(echo.stdout).toBe('echo hello there\n');
  });

  it('input-required answered by --input', async () => {
    const run = await a2a(['send', server.url, 'ask', '--input', 'teal']);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/what next\?.*\ngot teal\n$/);
  });

  it('list: v0.3 has no ListTasks, one line and exit 5', async () => {
    const run = await a2a(['list', server.url]);
    expect(run.code).toBe(5);
    expect(run.stderr).toMatch(/ListTasks does not exist in A2A v0\.3/);
  });

  it.each([['jsonrpc'], ['rest'], ['grpc']])('send --binding %s', async (binding) => {
    const run = await a2a(['send', server.url, 'hi', '--binding', binding]);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('chunk 0\n');
  });
});
