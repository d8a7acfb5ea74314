import { isLoopbackAddress } from '../src/index.js';

describe('isLoopbackAddress', () => {
  it('is true for 127/8, ::1 and IPv4-mapped 127/8; false for other addresses and for names', () => {
    for (const a of ['127.0.0.1', '127.255.0.9', '::1', '::ffff:127.0.0.1']) expect(isLoopbackAddress(a)).toBe(true);
    for (const a of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', '::ffff:10.0.0.1', 'localhost', '127.1', '[::1]']) expect(isLoopbackAddress(a)).toBe(false);
  });
});
