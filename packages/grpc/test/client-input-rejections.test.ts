import { A2AErrorCode, ERROR_INFO_TYPE } from '@a2a-polyglot/core';
import { GetTaskRequest, Role, SendMessageRequest } from '@a2a-polyglot/model';
import * as v03 from '@a2a-polyglot/model/v03';
import { status as GrpcCode } from '@grpc/grpc-js';
import { grpcFrame, rawGrpcCall, type RawGrpcAnswer } from '@a2a-polyglot/testing';
import { gzipSync } from 'node:zlib';
import { ErrorInfo, Status } from '@a2a-polyglot/model/rpc';
import { startTestServer, type TestServer } from './helpers.js';

const GET_TASK = '/lf.a2a.v1.A2AService/GetTask';
const V1 = { 'a2a-version': '1.0' };
/** Not a gzip stream (no 1f 8b magic), not a deflate stream either. */
const GARBAGE = Buffer.from('this is not compressed at all, just bytes with the flag set');

function errorInfo(answer: RawGrpcAnswer): { reason: string; metadata: Record<string, string> } | undefined {
  if (!answer.statusDetails) return undefined;
  const detail = Status.decode(answer.statusDetails).details.find((d: { typeUrl: string }) => d.typeUrl === ERROR_INFO_TYPE);
  return detail && ErrorInfo.decode(detail.value);
}

describe('bad client input grpc-js rejects before our code: compressed flags, grpc-timeout', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it.each(['gzip', 'deflate'])(
    'garbage under grpc-encoding %s → INVALID_ARGUMENT with ErrorInfo PARSE_ERROR (grpc-js alone: INTERNAL, no ErrorInfo)',
    async (encoding) => {
      const answer = await rawGrpcCall(t.url, GET_TASK, grpcFrame(GARBAGE, { compressed: true }), { ...V1, 'grpc-encoding': encoding });
      expect(answer.grpcStatus).toBe(GrpcCode.INVALID_ARGUMENT);
      expect(errorInfo(answer)).toMatchObject({ reason: A2AErrorCode.ParseError, metadata: { rpc: 'GetTask' } });
      expect(answer.grpcMessage).toMatch(/flagged compressed but does not decompress/);
    },
  );

  it('a message that does decompress still reaches the handler (TASK_NOT_FOUND for an unknown id)', async () => {
    const request = Buffer.from(GetTaskRequest.encode(GetTaskRequest.fromPartial({ id: 'no-such-task' })).finish());
    const answer = await rawGrpcCall(t.url, GET_TASK, grpcFrame(gzipSync(request), { compressed: true }), { ...V1, 'grpc-encoding': 'gzip' });
    expect(answer.grpcStatus).toBe(GrpcCode.NOT_FOUND);
    expect(errorInfo(answer)?.reason).toBe(A2AErrorCode.TaskNotFound);
  });

  it('the compressed flag without grpc-encoding: grpc-js reads the bytes as they are, our decoder answers INVALID_ARGUMENT', async () => {
    const answer = await rawGrpcCall(t.url, GET_TASK, grpcFrame(Buffer.from([0x12, 0x7f, 0x41]), { compressed: true }), V1);
    expect(answer.grpcStatus).toBe(GrpcCode.INVALID_ARGUMENT);
    expect(errorInfo(answer)?.reason).toBe(A2AErrorCode.ParseError);
  });

  it('a malformed grpc-timeout → INVALID_ARGUMENT with ErrorInfo INVALID_REQUEST (grpc-js alone: INTERNAL, no ErrorInfo); a valid one passes', async () => {
    const request = Buffer.from(GetTaskRequest.encode(GetTaskRequest.fromPartial({ id: 'no-such-task' })).finish());
    for (const timeout of ['garbage', '', 'S5', '5 seconds']) {
      const answer = await rawGrpcCall(t.url, GET_TASK, grpcFrame(request), { ...V1, 'grpc-timeout': timeout });
      expect(answer.grpcStatus).toBe(GrpcCode.INVALID_ARGUMENT);
      expect(errorInfo(answer)).toMatchObject({ reason: A2AErrorCode.InvalidRequest, metadata: { rpc: 'GetTask' } });
    }
    const answer = await rawGrpcCall(t.url, GET_TASK, grpcFrame(request), { ...V1, 'grpc-timeout': '5S' });
    expect(answer.grpcStatus).toBe(GrpcCode.NOT_FOUND);
  });

  it('an encoding grpc-js does not support stays UNIMPLEMENTED (as the gRPC compression spec requires)', async () => {
    const answer = await rawGrpcCall(t.url, GET_TASK, grpcFrame(GARBAGE, { compressed: true }), { ...V1, 'grpc-encoding': 'br' });
    expect(answer.grpcStatus).toBe(GrpcCode.UNIMPLEMENTED);
  });
});

describe('nesting is limited at decode, in both generations (README "Limits on responses and streams")', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ handler: { acceptAnyInputMode: true } }); // data parts reach the agent whatever the test card's input modes
  });
  afterAll(() => t.close());

  const nest = (levels: number): Record<string, unknown> => {
    let v: Record<string, unknown> = { leaf: 'x' };
    for (let i = 1; i < levels; i++) v = { a: v };
    return v;
  };
  const v1Send = (levels: number) =>
    Buffer.from(
      SendMessageRequest.encode(
        SendMessageRequest.fromPartial({
          message: { messageId: `m-v1-${levels}`, role: Role.ROLE_USER, parts: [{ content: { $case: 'data', value: nest(levels) } }] },
        }),
      ).finish(),
    );
  const v03Send = (levels: number) =>
    Buffer.from(
      v03.SendMessageRequest.encode(
        v03.SendMessageRequest.fromPartial({
          request: { messageId: `m-v03-${levels}`, role: v03.Role.ROLE_USER, content: [{ part: { $case: 'data', value: { data: nest(levels) } } }] },
        }),
      ).finish(),
    );

  it.each([
    ['v1.0', '/lf.a2a.v1.A2AService/SendMessage', v1Send, V1],
    ['v0.3', '/a2a.v1.A2AService/SendMessage', v03Send, {}],
  ] as const)('%s: data 30 levels deep is served, 40 levels is INVALID_ARGUMENT (a ParseError), not a crash', async (_name, path, encode, metadata) => {
    expect((await rawGrpcCall(t.url, path, grpcFrame(encode(30)), metadata)).grpcStatus).toBe(GrpcCode.OK);
    const deep = await rawGrpcCall(t.url, path, grpcFrame(encode(40)), metadata);
    expect(deep.grpcStatus).toBe(GrpcCode.INVALID_ARGUMENT);
    expect(errorInfo(deep)?.reason).toBe(A2AErrorCode.ParseError);
  });
});
