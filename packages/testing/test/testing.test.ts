import { createServer } from 'node:net';
import { planSuite, probeService, underCi, waitFor } from '../src/index.js';

describe('waitFor', () => {
  it('resolves as soon as the condition holds, sync or async', async () => {
    let n = 0;
    await waitFor(() => ++n === 3, { intervalMs: 1 });
    expect(n).toBe(3);
    await waitFor(async () => true);
  });

  it('rejects after timeoutMs, naming what it waited for', async () => {
    await expect(waitFor(() => false, { timeoutMs: 30, what: 'the answer' })).rejects.toThrow('the answer not met within 30 ms');
  });
});

describe('service suites', () => {
  const PG = 'postgres://postgres@127.0.0.1:5432/test';
  it('run with every URL set, skip locally without one, fail under CI without one', () => {
    expect(planSuite(['postgres'], { A2A_TEST_POSTGRES_URL: PG })).toEqual({ kind: 'run', urls: new Map([['postgres', PG]]) });
    expect(planSuite(['postgres', 'redis'], { A2A_TEST_POSTGRES_URL: PG })).toEqual({ kind: 'skip', missing: ['redis'] });
    expect(planSuite(['postgres', 'redis'], { CI: 'true', A2A_TEST_REDIS_URL: '' })).toEqual({ kind: 'fail', missing: ['postgres', 'redis'] });
    expect(planSuite(['redis'], { CI: 'true', A2A_TEST_REDIS_URL: 'redis://127.0.0.1:6379' }).kind).toBe('run');
  });

  it('reads CI the way CI systems set it', () => {
    expect([underCi({ CI: 'true' }), underCi({ CI: '1' }), underCi({ CI: 'false' }), underCi({ CI: '' }), underCi({})]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
  });

  it('probes a service: a listening port passes, a closed one fails clearly', async () => {
    const server = createServer((socket) => socket.end());
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as { port: number }).port;
    await probeService('redis', `redis://127.0.0.1:${port}`);
    await new Promise((r) => server.close(r));
    await expect(probeService('redis', `redis://127.0.0.1:${port}`)).rejects.toThrow(`Redis at A2A_TEST_REDIS_URL=redis://127.0.0.1:${port} is unreachable`);
  });
});
