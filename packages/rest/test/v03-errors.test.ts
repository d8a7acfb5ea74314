import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import { v03RestError } from '../src/index.js';

describe('v03RestError', () => {
  it('answers the bare v0.3 error object with the statuses of the v1.0 table', () => {
    expect(v03RestError(new A2AError(A2AErrorCode.TaskNotFound, 'Task x not found'))).toMatchObject({
      status: 404,
      body: { code: -32001, message: 'Task x not found', data: [expect.objectContaining({ reason: 'TASK_NOT_FOUND' })] },
      headers: {},
    });
    // An unknown route: 404 as on v1.0 (the a2a-js compat layer answered 501).
    expect(v03RestError(new A2AError(A2AErrorCode.MethodNotFound)).status).toBe(404);
    expect(v03RestError(new A2AError(A2AErrorCode.TaskNotCancelable)).status).toBe(400);
    expect(v03RestError(new A2AError(A2AErrorCode.InvalidAgentResponse))).toMatchObject({ status: 500, body: { code: -32006 } });
    const hidden = v03RestError(new Error('secret detail'));
    expect(hidden).toMatchObject({ status: 500, body: { code: -32603, message: 'Internal error' }, headers: {} });
    expect(JSON.stringify(hidden)).not.toContain('secret detail');
  });

  it('uses the v0.3 code where v1.0 has none, lists invalid fields, and lets HTTP-only failures override the status', () => {
    expect(v03RestError(new A2AError(A2AErrorCode.VersionNotSupported)).body.code).toBe(-32600);
    const invalid = v03RestError(new A2AError(A2AErrorCode.InvalidParams, 'bad', { fieldViolations: [{ field: 'message', description: 'required' }] }));
    expect(invalid.body).toMatchObject({ code: -32602, message: 'bad' });
    expect(invalid.body.data).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ reason: 'INVALID_PARAMS' }),
        expect.objectContaining({ fieldViolations: [{ field: 'message', description: 'required' }] }),
      ]),
    );
    expect(v03RestError(new A2AError(A2AErrorCode.InvalidRequest), undefined, 415).status).toBe(415);
    expect(v03RestError(new A2AError(A2AErrorCode.Unauthenticated))).toMatchObject({ status: 401, headers: { 'www-authenticate': 'Bearer' } });
  });
});
