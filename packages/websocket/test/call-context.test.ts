import { webSocketCallContext } from '../src/call-context.js';

describe('webSocketCallContext', () => {
  it('reads service parameters over the upgrade headers, case-insensitively, and nothing from the prototype', () => {
    const ctx = webSocketCallContext({ 'a2a-version': '1.0', authorization: 'Bearer a' }, { authorization: 'Bearer b' }, () => new AbortController().signal);
    expect(ctx.binding).toBe('WEBSOCKET');
    expect(ctx.header('A2A-Version')).toBe('1.0');
    expect(ctx.header('Authorization')).toBe('Bearer b');
    expect(ctx.header('x-missing')).toBeUndefined();
    expect(ctx.header('constructor')).toBeUndefined();
    expect(ctx.header('__proto__')).toBeUndefined();
  });

  it('makes the signal only when it is read', () => {
    const made = new AbortController();
    const signal = jest.fn(() => made.signal);
    const ctx = webSocketCallContext({}, {}, signal);
    ctx.header('a2a-version');
    expect(signal).not.toHaveBeenCalled();
    expect(ctx.signal).toBe(made.signal);
    expect(signal).toHaveBeenCalledTimes(1);
  });
});
