import {
  A2AError,
  A2AErrorCode,
  ALL_ERROR_CODES,
  codeFromGrpcStatus,
  codeFromJsonRpc,
  codeFromReason,
  ERROR_TABLE,
  fromHttpError,
  fromJsonRpcError,
  GrpcStatus,
  toHttpErrorBody,
  toJsonRpcError,
} from '../src/index.js';
import { codeFromHttpStatus } from '../src/error-table.js';

describe('error table', () => {
  it('has one row per code and unique JSON-RPC codes', () => {
    expect(Object.keys(ERROR_TABLE).sort()).toEqual([...ALL_ERROR_CODES].sort());
    const jsonRpc = ALL_ERROR_CODES.map((c) => ERROR_TABLE[c].jsonRpc);
    expect(new Set(jsonRpc).size).toBe(jsonRpc.length);
  });

  it('follows the A2A v1.0.1 mapping', () => {
    expect(ERROR_TABLE[A2AErrorCode.TaskNotFound]).toMatchObject({ jsonRpc: -32001, http: 404, grpc: GrpcStatus.NOT_FOUND });
    expect(ERROR_TABLE[A2AErrorCode.TaskNotCancelable]).toMatchObject({ jsonRpc: -32002, http: 400, grpc: GrpcStatus.FAILED_PRECONDITION });
    expect(ERROR_TABLE[A2AErrorCode.PushNotificationNotSupported]).toMatchObject({ jsonRpc: -32003, http: 400, grpc: GrpcStatus.FAILED_PRECONDITION });
    expect(ERROR_TABLE[A2AErrorCode.UnsupportedOperation]).toMatchObject({ jsonRpc: -32004, http: 400, grpc: GrpcStatus.FAILED_PRECONDITION });
    expect(ERROR_TABLE[A2AErrorCode.ContentTypeNotSupported]).toMatchObject({ jsonRpc: -32005, http: 400, grpc: GrpcStatus.INVALID_ARGUMENT });
    expect(ERROR_TABLE[A2AErrorCode.InvalidAgentResponse]).toMatchObject({ jsonRpc: -32006, http: 500, grpc: GrpcStatus.INTERNAL });
    expect(ERROR_TABLE[A2AErrorCode.ExtendedAgentCardNotConfigured]).toMatchObject({ jsonRpc: -32007, http: 400, grpc: GrpcStatus.FAILED_PRECONDITION });
    expect(ERROR_TABLE[A2AErrorCode.ExtensionSupportRequired]).toMatchObject({ jsonRpc: -32008, http: 400, grpc: GrpcStatus.FAILED_PRECONDITION });
    expect(ERROR_TABLE[A2AErrorCode.VersionNotSupported]).toMatchObject({ jsonRpc: -32009, http: 400, grpc: GrpcStatus.FAILED_PRECONDITION });
    expect(ERROR_TABLE[A2AErrorCode.ParseError].jsonRpc).toBe(-32700);
    expect(ERROR_TABLE[A2AErrorCode.InvalidRequest].jsonRpc).toBe(-32600);
    expect(ERROR_TABLE[A2AErrorCode.MethodNotFound].jsonRpc).toBe(-32601);
    expect(ERROR_TABLE[A2AErrorCode.InvalidParams].jsonRpc).toBe(-32602);
    expect(ERROR_TABLE[A2AErrorCode.Internal].jsonRpc).toBe(-32603);
  });

  it('maps the draft 1.1 TaskGenerationMismatchError as the dev-1.1 spec does (-32010, ABORTED, 409), and back from each wire', () => {
    expect(ERROR_TABLE[A2AErrorCode.TaskGenerationMismatch]).toMatchObject({ jsonRpc: -32010, http: 409, grpc: GrpcStatus.ABORTED, a2a: true });
    expect(A2AErrorCode.TaskGenerationMismatch).toBe('TASK_GENERATION_MISMATCH');
    expect(codeFromHttpStatus(409)).toBe(A2AErrorCode.TaskGenerationMismatch);
    expect(codeFromGrpcStatus(GrpcStatus.ABORTED)).toBe(A2AErrorCode.TaskGenerationMismatch);
    expect(toHttpErrorBody(new A2AError(A2AErrorCode.TaskGenerationMismatch, 'm')).error).toMatchObject({ code: 409, status: 'ABORTED' });
  });

  it('has the v0.3 form of every code (spec §12.3: no -32008/-32009, class names for gRPC messages)', () => {
    expect(ERROR_TABLE[A2AErrorCode.TaskNotFound].v03).toEqual({ jsonRpc: -32001, name: 'TaskNotFoundError' });
    expect(ERROR_TABLE[A2AErrorCode.ExtendedAgentCardNotConfigured].v03).toEqual({ jsonRpc: -32007, name: 'AuthenticatedExtendedCardNotConfiguredError' });
    expect(ERROR_TABLE[A2AErrorCode.VersionNotSupported].v03.jsonRpc).toBe(-32600);
    expect(ERROR_TABLE[A2AErrorCode.ExtensionSupportRequired].v03.jsonRpc).toBe(-32600);
    for (const code of ALL_ERROR_CODES) {
      const { jsonRpc, name } = ERROR_TABLE[code].v03;
      expect(jsonRpc === ERROR_TABLE[code].jsonRpc || jsonRpc === -32600).toBe(true);
      expect(name).toMatch(/^[A-Z][A-Za-z]+Error$/);
    }
  });

  it.each(ALL_ERROR_CODES)('round-trips %s through the reason and the JSON-RPC code', (code) => {
    expect(codeFromReason(code)).toBe(code);
    expect(codeFromJsonRpc(ERROR_TABLE[code].jsonRpc)).toBe(code);
  });

  it('has the v0.3 form of every code (spec §12.3: no -32008/-32009, class names for gRPC messages)', () => {
    expect(ERROR_TABLE[A2AErrorCode.TaskNotFound].v03).toEqual({ jsonRpc: -32001, name: 'TaskNotFoundError' });
    expect(ERROR_TABLE[A2AErrorCode.ExtendedAgentCardNotConfigured].v03).toEqual({ jsonRpc: -32007, name: 'AuthenticatedExtendedCardNotConfiguredError' });
    expect(ERROR_TABLE[A2AErrorCode.VersionNotSupported].v03.jsonRpc).toBe(-32600);
    expect(ERROR_TABLE[A2AErrorCode.ExtensionSupportRequired].v03.jsonRpc).toBe(-32600);
    for (const code of ALL_ERROR_CODES) {
      const { jsonRpc, name } = ERROR_TABLE[code].v03;
      expect(jsonRpc === ERROR_TABLE[code].jsonRpc || jsonRpc === -32600).toBe(true);
      expect(name).toMatch(/^[A-Z][A-Za-z]+Error$/);
    }
  });

  it.each(ALL_ERROR_CODES)('round-trips %s through the JSON-RPC and REST wire shapes', (code) => {
    const err = new A2AError(code, 'boom', { metadata: { taskId: 't1' }, fieldViolations: [{ field: 'a.b', description: 'bad' }] });
    const viaRpc = fromJsonRpcError(JSON.parse(JSON.stringify(toJsonRpcError(err))));
    expect(viaRpc).toMatchObject({ code, message: 'boom', metadata: { taskId: 't1' } });
    expect(viaRpc.fieldViolations).toEqual([{ field: 'a.b', description: 'bad' }]);
    const body = toHttpErrorBody(err);
    expect(body.error.code).toBe(ERROR_TABLE[code].http);
    expect(body.error.status).toBe(GrpcStatus[ERROR_TABLE[code].grpc]);
    expect(fromHttpError(ERROR_TABLE[code].http, JSON.parse(JSON.stringify(body)))).toMatchObject({ code, message: 'boom' });
  });

  it('sends ErrorInfo with the spec domain for A2A errors', () => {
    const rpc = toJsonRpcError(new A2AError(A2AErrorCode.TaskNotFound));
    expect(rpc.data[0]).toEqual({ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'TASK_NOT_FOUND', domain: 'a2a-protocol.org' });
  });

  it('guesses a code from a bare status when a peer sends no ErrorInfo', () => {
    expect(codeFromHttpStatus(404)).toBe(A2AErrorCode.TaskNotFound);
    expect(codeFromHttpStatus(413)).toBe(A2AErrorCode.PayloadTooLarge);
    expect(codeFromHttpStatus(599)).toBe(A2AErrorCode.Internal);
    expect(codeFromGrpcStatus(GrpcStatus.UNAUTHENTICATED)).toBe(A2AErrorCode.Unauthenticated);
    expect(fromHttpError(404, 'not json')).toMatchObject({ code: A2AErrorCode.TaskNotFound });
    expect(fromJsonRpcError({ code: -32001 })).toMatchObject({ code: A2AErrorCode.TaskNotFound });
  });

  it('hides unknown failures behind Internal and keeps the cause', () => {
    const cause = new Error('db password is hunter2');
    const err = A2AError.from(cause);
    expect(err.code).toBe(A2AErrorCode.Internal);
    expect(err.message).not.toContain('hunter2');
    expect(err.cause).toBe(cause);
    expect(A2AError.from(err)).toBe(err);
  });
});
