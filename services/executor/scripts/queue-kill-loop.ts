/**
 * The kill -9 loop of the run queue (not part of `npm test`): starts the deployment of
 * `test/queue-cluster.ts` (a frontend and two workers on PostgreSQL + Redis), then N times
 * (default 50) streams a task of the retryable agent from the frontend, kills the worker
 * running it with SIGKILL and starts a fresh one. Prints how many tasks ended FAILED because
 * their worker stopped, how many did not complete, and how many streams saw a gap in the
 * event numbers. Exits 1 when any did.
 *
 *   A2A_TEST_POSTGRES_URL=postgres://... A2A_TEST_REDIS_URL=redis://... \
 *     node scripts/run-ts.js services/executor/scripts/queue-kill-loop.ts 50
 */
import { ABANDONED_TASK_MESSAGE } from '@a2a-polyglot/core';
import { cleanUp, POSTGRES_URL, REDIS_URL, uniqueName } from '../test/durable-services.js';
import { startQueueCluster } from '../test/queue-cluster.js';

async function main(): Promise<void> {
  const trials = Number(process.argv[2] ?? 50);
  if (!POSTGRES_URL || !REDIS_URL) throw new Error('Set A2A_TEST_POSTGRES_URL and A2A_TEST_REDIS_URL');
  const schema = uniqueName('a2a_queue_loop');
  const cluster = await startQueueCluster({ postgresUrl: POSTGRES_URL, redisUrl: REDIS_URL, schema, prefix: schema });
  let failedForStop = 0;
  let notCompleted = 0;
  let gaps = 0;
  let resumed = 0;
  try {
    for (let i = 1; i <= trials; i++) {
      const outcome = await cluster.trial('retry');
      if (outcome.state === 'TASK_STATE_FAILED' && outcome.reason === ABANDONED_TASK_MESSAGE) failedForStop++;
      if (outcome.state !== 'TASK_STATE_COMPLETED') notCompleted++;
      if (!outcome.gapFree) gaps++;
      if (outcome.ranOn.length > 1) resumed++;
      const note = outcome.gapFree ? '' : ` seqs ${outcome.seqs.join(',')}`;
      console.log(`trial ${i}/${trials}: ${outcome.state} ran on ${outcome.ranOn.join(' then ')}${note}`);
    }
  } finally {
    await cluster.close();
    await cleanUp(schema, schema);
  }
  console.log(
    `${trials} kill -9 trials: ${failedForStop} FAILED because their worker stopped, ${notCompleted} not COMPLETED, ${resumed} resumed on another worker, ${gaps} followers saw a gap`,
  );
  if (failedForStop + notCompleted + gaps > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
