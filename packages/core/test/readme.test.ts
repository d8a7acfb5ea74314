/** The README's usage example, run as written: it prints what its comments say. */
import path from 'node:path';
import { runReadmeExample } from '@a2a-polyglot/testing';

it('README: an echo agent answers in-process with a completed task', async () => {
  const lines = await runReadmeExample(path.join(__dirname, '../README.md'), { load: (name) => require(name) });
  expect(lines).toEqual(['TASK_STATE_COMPLETED', 'You said: hello']);
});
