/** The README's usage example, run as written: it prints what its comments say. */
import path from 'node:path';
import { runReadmeExample } from '@a2a-polyglot/testing';

it('README: a bounded JSON body, a 413 above the limit, and an SSE stream with ids', async () => {
  const lines = await runReadmeExample(path.join(__dirname, '../README.md'), { load: (name) => require(name) });
  expect(lines).toEqual(['200 {"got":{"a":1}}', '413', JSON.stringify('id: 1\ndata: {"n":1}\n\nid: 2\ndata: {"n":2}\n\n')]);
});
