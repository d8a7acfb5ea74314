/** The README's usage example, run as written: it prints what its comments say. */
import path from 'node:path';
import { runReadmeExample } from '@a2a-polyglot/testing';

it('README: SendMessage completes and an unknown task is -32001', async () => {
  const lines = await runReadmeExample(path.join(__dirname, '../README.md'), { load: (name) => require(name) });
  expect(lines[0]).toBe('TASK_STATE_COMPLETED');
  expect(lines[1]).toMatch(/^-32001 /);
  expect(lines).toHaveLength(2);
});
