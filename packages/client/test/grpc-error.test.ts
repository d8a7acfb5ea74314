/**
 * The client's half of the gRPC error mapping: `fromGrpcError` rebuilds the A2AError the
 * server's `toGrpcError` sent (code, message, ErrorInfo metadata, BadRequest), and falls back
 * to the status code when a peer sends no details.
 */
import { A2AError, A2AErrorCode, ALL_ERROR_CODES, ERROR_TABLE, GRPC_STATUS_DETAILS_KEY } from '@a2a-polyglot/core';
import { toGrpcError } from '@a2a-polyglot/grpc';
import { ErrorInfo, Status } from '@a2a-polyglot/model/rpc';
import { Metadata } from '@grpc/grpc-js';
import { fromGrpcError } from '../src/grpc.js';

describe('A2AError <-> gRPC status', () => {
  it.each(ALL_ERROR_CODES)('%s: status code from ERROR_TABLE, ErrorInfo in the trailer, and back', (code) => {
    const error = new A2AError(code, `failed: ${code}`, { metadata: { taskId: 't' } });
    const status = toGrpcError(error);
    expect(status.code).toBe(ERROR_TABLE[code].grpc);
    expect(status.details).toBe(`failed: ${code}`);
    const rpc = Status.decode(status.metadata.get(GRPC_STATUS_DETAILS_KEY)[0] as Buffer);
    expect(rpc.code).toBe(ERROR_TABLE[code].grpc);
    const info = ErrorInfo.decode(rpc.details[0]!.value);
    expect(info).toEqual({ reason: code, domain: ERROR_TABLE[code].a2a ? 'a2a-protocol.org' : 'a2a-polyglot', metadata: { taskId: 't' } });
    const back = fromGrpcError(status);
    expect(back.code).toBe(code);
    expect(back.message).toBe(`failed: ${code}`);
    expect(back.metadata).toEqual({ taskId: 't' });
  });

  it('carries field violations as a BadRequest detail', () => {
    const error = new A2AError(A2AErrorCode.InvalidParams, 'bad', { fieldViolations: [{ field: 'id', description: 'required' }] });
    const back = fromGrpcError(toGrpcError(error));
    expect(back.fieldViolations).toEqual([{ field: 'id', description: 'required' }]);
  });

  it('falls back to the status code without details, and recognises grpc-js size limits', () => {
    expect(fromGrpcError({ code: 5, details: 'gone', metadata: new Metadata() }).code).toBe(A2AErrorCode.TaskNotFound);
    expect(fromGrpcError({ code: 8, details: 'Received message larger than max (10 vs. 5)', metadata: new Metadata() }).code).toBe(
      A2AErrorCode.PayloadTooLarge,
    );
    expect(fromGrpcError({ code: 8, details: 'slow down', metadata: new Metadata() }).code).toBe(A2AErrorCode.ResourceExhausted);
    const garbage = new Metadata();
    garbage.set(GRPC_STATUS_DETAILS_KEY, Buffer.from([0x0a, 0xff]));
    expect(fromGrpcError({ code: 14, details: 'x', metadata: garbage }).code).toBe(A2AErrorCode.Unavailable);
  });
});
