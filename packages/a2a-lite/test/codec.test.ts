import { formatLite, formatLiteArgs, formatLiteMessage, LITE_REQUIRED, LITE_STATES, LITE_TYPES, LiteError, parseLite, type LiteMessage } from '../src/index.js';

/** Parameters that satisfy each type's requirements. */
function paramsFor(type: (typeof LITE_TYPES)[number], state = 'working'): Record<string, string> {
  return {
    discover: {},
    card: {},
    task: { id: 'research-001', skill: 'research' },
    status: { task: 'research-001', state, progress: '50%' },
    result: { task: 'research-001', state },
    cancel: { task: 'research-001', reason: 'no-longer-needed' },
    ack: { task: 'research-001' },
  }[type];
}

describe('parseLite', () => {
  it('reads the examples of the convention', () => {
    expect(parseLite('[A2A:discover]\n请告诉我你能做什么？')).toEqual({
      isA2A: true,
      type: 'discover',
      params: {},
      body: '请告诉我你能做什么？',
      attachments: [],
    });
    expect(parseLite('[A2A:status task=task-123 state=working progress=50%]')).toEqual({
      isA2A: true,
      type: 'status',
      params: { task: 'task-123', state: 'working', progress: '50%' },
      body: '',
      attachments: [],
    });
    const result = parseLite('[A2A:result task=research-001 state=completed]\n调研报告已完成，见附件。\n[附件: ai-agent-research-2026-02.md]\n\n');
    expect(result).toMatchObject({
      type: 'result',
      body: '调研报告已完成，见附件。\n[附件: ai-agent-research-2026-02.md]',
      attachments: ['ai-agent-research-2026-02.md'],
    });
  });

  it('keeps untagged text a plain message, and degrades malformed tags with the reason', () => {
    expect(parseLite('hello there')).toEqual({ isA2A: false });
    expect(parseLite('I said [A2A:task id=1] earlier')).toEqual({ isA2A: false });
    expect(parseLite('[A2A:task id=1\nbody')).toEqual({ isA2A: false, reason: 'the tag line does not end with "]"' });
    expect(parseLite('[A2A:Task id=1]')).toEqual({ isA2A: false, reason: 'invalid message type "Task"' });
    expect(parseLite('[A2A:task Id=1]')).toEqual({ isA2A: false, reason: 'invalid parameter name "Id"' });
    expect(parseLite('[A2A:task id="open]')).toEqual({ isA2A: false, reason: 'unterminated quoted value' });
    expect(parseLite('[A2A:task id="a\\qb"]')).toEqual({ isA2A: false, reason: 'invalid escape \\q in a quoted value' });
    expect(parseLite('[A2A:task stray id=1]')).toEqual({ isA2A: false, reason: 'unexpected "stray" before any key=value' });
  });

  it("parses the skill's one-line example: text after the tag on its line starts the body", () => {
    // scripts/parse_message.sh "[A2A:task id=123]..." (the skill's usage example).
    expect(parseLite('[A2A:task id=123]...')).toEqual({ isA2A: true, type: 'task', params: { id: '123' }, body: '...', attachments: [] });
    expect(parseLite('[A2A:task id=t-1 skill=research] Look into X.\nWithin a week.')).toMatchObject({
      params: { id: 't-1', skill: 'research' },
      body: 'Look into X.\nWithin a week.',
    });
    expect(parseLite('[A2A:cancel task=t-1]   ')).toMatchObject({ type: 'cancel', body: '' });
    // A "]" inside a quoted value does not end the tag.
    expect(parseLite('[A2A:task id="a]b"] rest')).toMatchObject({ params: { id: 'a]b' }, body: 'rest' });
  });

  it('tolerates CRLF, leading blank lines and trailing spaces on the tag line', () => {
    expect(parseLite('\r\n  [A2A:ack task=t1]  \r\nok\r\n')).toMatchObject({ isA2A: true, type: 'ack', params: { task: 't1' }, body: 'ok' });
  });

  it('recovers multi-word values written without quotes, and reads quoted values with escapes', () => {
    expect(parseLite('[A2A:status task=t state=failed eta=in ten minutes]')).toMatchObject({ isA2A: true, params: { eta: 'in ten minutes' } });
    const quoted = parseLite('[A2A:task id="a \\"b\\" \\\\ c\\nd \\u00e9]" skill=x]');
    expect(quoted).toMatchObject({ params: { id: 'a "b" \\ c\nd é]', skill: 'x' } });
  });

  it('always yields valid JSON, whatever the values hold (unlike the shell script)', () => {
    const parsed = parseLite(formatLite('task', { id: 'x"y\\z' }, 'line "one"\nline\\two'));
    expect(JSON.parse(JSON.stringify(parsed))).toEqual(parsed);
    expect(parsed).toMatchObject({ params: { id: 'x"y\\z' }, body: 'line "one"\nline\\two' });
  });
});

describe('formatLite', () => {
  it('writes the header and the body the way the convention shows', () => {
    expect(formatLite('status', { task: 'research-001', state: 'working' }, '正在收集资料，预计还需要 10 分钟。')).toBe(
      '[A2A:status task=research-001 state=working]\n正在收集资料，预计还需要 10 分钟。',
    );
    expect(formatLite('discover')).toBe('[A2A:discover]');
    expect(formatLite('task', { id: 'x', skill: undefined, priority: 2 })).toBe('[A2A:task id=x priority=2]');
  });

  it('quotes exactly the values that need it', () => {
    expect(formatLite('task', { id: 'a b' })).toBe('[A2A:task id="a b"]');
    expect(formatLite('task', { id: 'ends]' })).toBe('[A2A:task id="ends]"]');
    expect(formatLite('task', { id: 'q"' })).toBe('[A2A:task id="q\\""]');
    expect(formatLite('task', { id: 'line\nbreak\ttab' })).toBe('[A2A:task id="line\\nbreak\\ttab"]');
    expect(formatLite('task', { id: 'x', note: '' })).toBe('[A2A:task id=x note=""]');
    expect(formatLite('task', { id: 'k=v/50%' })).toBe('[A2A:task id=k=v/50%]');
  });

  it('refuses what the convention does not allow', () => {
    expect(() => formatLite('hello', {})).toThrow(
      new LiteError('Unknown A2A-Lite message type "hello" (known: discover, card, task, status, result, cancel, ack)'),
    );
    expect(() => formatLite('task', {})).toThrow('A2A-Lite "task" messages need id=');
    expect(() => formatLite('status', { task: 't' })).toThrow('A2A-Lite "status" messages need state=');
    expect(() => formatLite('result', { task: 't', state: 'canceled' })).toThrow('Invalid A2A-Lite state "canceled"');
    expect(() => formatLite('ack', { task: 't', 'Bad Key': 'x' })).toThrow('Invalid A2A-Lite parameter name "Bad Key"');
  });

  it('round-trips every type, and every state on status and result', () => {
    const cases: LiteMessage[] = [];
    for (const type of LITE_TYPES) {
      const states = type === 'status' || type === 'result' ? LITE_STATES : ['working'];
      for (const state of states) cases.push({ type, params: paramsFor(type, state), body: `body of ${type}\nsecond line`, attachments: [] });
    }
    expect(cases).toHaveLength(5 + 2 * LITE_STATES.length);
    for (const m of cases) {
      const text = formatLiteMessage(m);
      for (const key of LITE_REQUIRED[m.type as (typeof LITE_TYPES)[number]]) expect(text.split('\n')[0]).toContain(`${key}=`);
      expect(parseLite(text)).toEqual({ isA2A: true, ...m });
    }
  });

  it('round-trips awkward values', () => {
    const values = ['', ' ', 'two words', '"quoted"', 'back\\slash', 'brackets [x]', ']', 'tab\there', 'multi\nline', 'émoji 🎉', '\u0001ctl', 'a=b', '="'];
    for (const value of values) {
      const text = formatLite('task', { id: 'x', note: value }, 'b');
      expect(text.split('\n')).toHaveLength(2); // the header stays one line
      expect(parseLite(text)).toMatchObject({ isA2A: true, params: { id: 'x', note: value }, body: 'b' });
    }
  });
});

describe('formatLiteArgs (the format_message.sh calling convention)', () => {
  it('formats type, key=value pairs and the body after --', () => {
    expect(formatLiteArgs(['status', 'task=123', 'state=working'])).toBe('[A2A:status task=123 state=working]');
    expect(formatLiteArgs(['result', 'task=1', 'state=completed', 'note=a b', '--', 'All', 'done.'])).toBe(
      '[A2A:result task=1 state=completed note="a b"]\nAll done.',
    );
    expect(() => formatLiteArgs([])).toThrow('Usage: <type> [key=value …] [-- body…]');
    expect(() => formatLiteArgs(['task', 'id=1', 'oops'])).toThrow('Expected key=value, got "oops" (put the body after --)');
  });
});
