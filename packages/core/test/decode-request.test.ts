import { A2AErrorCode, decodeJsonRequest, OPERATIONS } from '../src/index.js';

/** Unknown request members: dropped by default (spec: a receiver SHOULD ignore them), rejected when strict. */
describe('decodeJsonRequest', () => {
  const params = { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hi', kind: 'text' }], final: true }, bogusField: 1 };

  it('drops unknown members by default, so they never reach the model', () => {
    const request = decodeJsonRequest(OPERATIONS.SendMessage, params);
    expect(request.message?.parts[0]?.content).toEqual({ $case: 'text', value: 'hi' });
    expect(JSON.stringify(request)).not.toMatch(/kind|final|bogusField/);
  });

  it('still rejects wrong types by default', () => {
    expect(() => decodeJsonRequest(OPERATIONS.GetTask, { id: 'x', historyLength: 'many', later: 1 })).toThrow(
      expect.objectContaining({ code: A2AErrorCode.InvalidParams, fieldViolations: [{ field: 'historyLength', description: expect.any(String) }] }),
    );
  });

  it('rejects unknown members with one violation each when strict', () => {
    expect(() => decodeJsonRequest(OPERATIONS.SendMessage, params, { strict: true })).toThrow(
      expect.objectContaining({
        code: A2AErrorCode.InvalidParams,
        fieldViolations: expect.arrayContaining([
          expect.objectContaining({ field: 'bogusField' }),
          expect.objectContaining({ field: 'message.parts[0].kind' }),
        ]),
      }),
    );
  });
});
