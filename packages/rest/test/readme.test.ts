/** The README's usage example, run as written: it prints what its comments say. */
import path from 'node:path';
import { runReadmeExample } from '@a2a-polyglot/testing';

it('README: send, get and a 404 with its ErrorInfo reason', async () => {
  const lines = await runReadmeExample(path.join(__dirname, '../README.md'), { load: (name) => require(name) });
  expect(lines).toEqual(['200 TASK_STATE_COMPLETED', '200 You said: hello', '404 TASK_NOT_FOUND']);
});
