/** The bounded close steps behind the documented shutdown deadline. */
import { silentLogger } from '@a2a-polyglot/core';
import { closeSteps, shutdownDeadlineMs, SHUTDOWN_MARGIN_MS } from '../src/shutdown-deadline.js';

describe('closeSteps', () => {
  it('goes on past a step that hangs or fails, and resolves by the deadline', async () => {
    const ran: string[] = [];
    const started = Date.now();
    await closeSteps(
      [
        ['hangs', () => new Promise<void>(() => ran.push('hangs'))],
        ['fails', async () => (ran.push('fails'), Promise.reject(new Error('boom')))],
        ['closes', async () => void ran.push('closes')],
      ],
      Date.now() + 200,
      silentLogger,
    );
    expect(ran).toEqual(['hangs', 'fails', 'closes']);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('the deadline is the grace period plus the fixed margin', () => {
    expect(shutdownDeadlineMs(500)).toBe(500 + SHUTDOWN_MARGIN_MS);
  });
});
