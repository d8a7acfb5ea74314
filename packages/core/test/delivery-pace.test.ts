import { DELIVERY_TURN_FRAMES, DeliveryPace } from '../src/index.js';

describe('DeliveryPace', () => {
  it('is due after DELIVERY_TURN_FRAMES frames, and a turn runs what waits on the event loop before the count starts again', async () => {
    const pace = new DeliveryPace(() => true);
    pace.sent(DELIVERY_TURN_FRAMES - 1);
    expect(pace.due).toBe(false);
    pace.sent();
    expect(pace.due).toBe(true);
    let immediate = false;
    setImmediate(() => (immediate = true));
    await pace.turn();
    expect(immediate).toBe(true);
    expect(pace.due).toBe(false);
  });
});
