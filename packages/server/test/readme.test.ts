/** The README's usage example, run as written: it prints what its comments say. */
import path from 'node:path';
import { runReadmeExample } from '@a2a-polyglot/testing';

it('README: the server lists its interfaces in the card and answers SendMessage over JSON-RPC', async () => {
  const lines = await runReadmeExample(path.join(__dirname, '../README.md'), { load: (name) => require(name) });
  expect(lines).toEqual([
    expect.stringMatching(/^JSONRPC 1\.0 http:\/\/127\.0\.0\.1:\d+\/a2a\/rpc$/),
    expect.stringMatching(/^HTTP\+JSON 1\.0 http:\/\/127\.0\.0\.1:\d+\/a2a$/),
    expect.stringMatching(/^JSONRPC 0\.3 http:\/\/127\.0\.0\.1:\d+\/a2a\/rpc$/),
    expect.stringMatching(/^HTTP\+JSON 0\.3 http:\/\/127\.0\.0\.1:\d+\/a2a$/),
    'TASK_STATE_COMPLETED',
  ]);
});
