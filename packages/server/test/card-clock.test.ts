import { CardClock } from '../src/card-clock.js';

describe('CardClock (the card Last-Modified)', () => {
  it('keeps the date while the card stays the same, in whole seconds', () => {
    let now = 1_700_000_000_750;
    const clock = new CardClock(() => now);
    const first = clock.lastModified('{"name":"a"}');
    expect(first.getTime()).toBe(1_700_000_000_000);
    now += 60_000;
    expect(clock.lastModified('{"name":"a"}')).toBe(first);
  });

  it('moves on every change, also back to an earlier card', () => {
    let now = 1_700_000_000_000;
    const clock = new CardClock(() => now);
    const a = clock.lastModified('{"name":"a"}');
    now += 5000;
    const b = clock.lastModified('{"name":"b"}');
    expect(b.getTime()).toBe(a.getTime() + 5000);
    now += 5000;
    expect(clock.lastModified('{"name":"a"}').getTime()).toBe(b.getTime() + 5000);
  });
});
