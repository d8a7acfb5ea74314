import { checkReadiness } from '../src/index.js';

describe('checkReadiness', () => {
  it('is ready with no checks while not draining', async () => {
    expect(await checkReadiness({ draining: () => false })).toEqual({ ready: true, draining: false, checks: [] });
  });

  it('is not ready while draining, even when every dependency answers', async () => {
    const report = await checkReadiness({ draining: () => true, checks: [{ name: 'store', probe: async () => undefined }] });
    expect(report).toEqual({ ready: false, draining: true, checks: [{ name: 'store', ok: true }] });
  });

  it('names the dependency that failed, with its first line only', async () => {
    const report = await checkReadiness({
      draining: () => false,
      checks: [
        { name: 'store', probe: async () => undefined },
        { name: 'event-log', probe: async () => Promise.reject(new Error('connect ECONNREFUSED\n    at stack frame')) },
      ],
    });
    expect(report.ready).toBe(false);
    expect(report.checks).toEqual([
      { name: 'store', ok: true },
      { name: 'event-log', ok: false, error: 'connect ECONNREFUSED' },
    ]);
  });

  it('counts a probe that never answers as failed after the timeout, and still answers', async () => {
    const report = await checkReadiness({ draining: () => false, timeoutMs: 20, checks: [{ name: 'store', probe: () => new Promise<void>(() => undefined) }] });
    expect(report).toEqual({ ready: false, draining: false, checks: [{ name: 'store', ok: false, error: 'no answer within 20 ms' }] });
  });
});
