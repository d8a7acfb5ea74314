import { Message, Role, SendMessageConfiguration, SendMessageRequest } from '@a2a-polyglot/model';
import { captureOutput, eventually, Gate, Gates, userSend } from '../src/index.js';

describe('userSend', () => {
  it('is the request a decoder builds: one user text part, a fresh id, protobuf defaults elsewhere', () => {
    const a = userSend('hi');
    const b = userSend('hi');
    expect(a.message?.messageId).not.toBe(b.message?.messageId);
    expect(a).toEqual(
      SendMessageRequest.fromPartial({
        message: Message.fromPartial({ messageId: a.message?.messageId, role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: 'hi' } }] }),
      }),
    );
    expect(a.configuration).toBeUndefined();
  });

  it('sets the task, context, configuration and any message field it is given', () => {
    const r = userSend('go', { taskId: 't', contextId: 'c', configuration: { returnImmediately: true }, message: { messageId: 'm', extensions: ['x'] } });
    expect(r.message).toMatchObject({ taskId: 't', contextId: 'c', messageId: 'm', extensions: ['x'] });
    expect(r.configuration).toEqual(SendMessageConfiguration.fromPartial({ returnImmediately: true }));
  });
});

describe('Gate and Gates', () => {
  it('Gate releases the agents waiting when it opens, and an aborted one at once', async () => {
    const gate = new Gate();
    const order: string[] = [];
    const waiting = gate.wait(new AbortController().signal).then(() => order.push('released'));
    const aborted = new AbortController();
    const canceled = gate.wait(aborted.signal).then(() => order.push('aborted'));
    aborted.abort();
    await canceled;
    expect(order).toEqual(['aborted']);
    gate.open();
    await waiting;
    expect(order).toEqual(['aborted', 'released']);
  });

  it('Gates opens each key for good and tells which keys an agent reached', async () => {
    const gates = new Gates();
    gates.open('early');
    await gates.wait('early', new AbortController().signal);
    expect(gates.reached('late')).toBe(false);
    const late = gates.wait('late', new AbortController().signal);
    expect(gates.reached('late')).toBe(true);
    gates.open('late');
    await late;
  });
});

describe('eventually', () => {
  it('retries until the call succeeds, and rejects with the last error past the deadline', async () => {
    let calls = 0;
    await expect(eventually(async () => (++calls < 3 ? Promise.reject(new Error('not yet')) : calls), { intervalMs: 1 })).resolves.toBe(3);
    await expect(eventually(() => Promise.reject(new Error('never')), { timeoutMs: 20, intervalMs: 1 })).rejects.toThrow('never');
  });
});

describe('captureOutput', () => {
  it('catches stdout, stderr and the console until restored', () => {
    const output = captureOutput();
    try {
      process.stdout.write('out\n');
      process.stderr.write('err\n');
      console.warn('a', 1);
    } finally {
      output.restore();
    }
    expect(output.written).toEqual(['out\n', 'err\n', 'a 1']);
  });
});
