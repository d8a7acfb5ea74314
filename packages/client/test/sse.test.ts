/** The SSE parser on its own: framing variants real servers produce. */
import { SseParser } from '../src/index.js';

describe('SseParser', () => {
  it('parses LF, CRLF and CR framing, ids, event names, and skips comments', () => {
    const parser = new SseParser();
    const out = parser.push(': ping\n\nid: 1\ndata: {"a":1}\n\r\nevent: error\r\ndata: x\r\n\r\nid: 3\rdata: y\r\r\n');
    expect(out).toEqual([
      { event: 'message', data: '{"a":1}', id: '1' },
      { event: 'error', data: 'x' },
      { event: 'message', data: 'y', id: '3' },
    ]);
  });

  it('handles events split anywhere across chunks, including between CR and LF', () => {
    const text = 'id: 7\r\ndata: {"hello":\r\ndata: "world"}\r\n\r\n';
    for (let cut = 1; cut < text.length; cut++) {
      const parser = new SseParser();
      const out = [...parser.push(text.slice(0, cut)), ...parser.push(text.slice(cut))];
      expect(out).toEqual([{ event: 'message', data: '{"hello":\n"world"}', id: '7' }]);
    }
  });

  it('ignores events without data and keeps no id across events', () => {
    const parser = new SseParser();
    expect(parser.push('id: 1\n\ndata: a\n\n')).toEqual([{ event: 'message', data: 'a' }]);
  });

  it('bounds the size of one event', () => {
    const parser = new SseParser(16);
    expect(() => parser.push(`data: ${'x'.repeat(32)}\n`)).toThrow(/exceeded 16 bytes/);
    expect(() => new SseParser(16).push('x'.repeat(32))).toThrow(/exceeded 16 bytes/);
  });
});
