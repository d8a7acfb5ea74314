import { A2AError, A2AErrorCode, ApiKeyAuthenticator, ERROR_TABLE } from '@a2a-polyglot/core';
import { GetTaskRequest, SendMessageRequest, TaskState, type Task } from '@a2a-polyglot/model';
import { Server, ServerCredentials, status as GrpcCode, type ServiceError } from '@grpc/grpc-js';
import { GrpcTransport } from './client.js';
import { detailsOf, waitFor, rawUnary, startTestServer, testCard, userMessage, type TestServer } from './helpers.js';

const PATH = '/lf.a2a.v1.A2AService/';

/** Runs `call`, expecting an A2AError, and returns it. */
async function failure(call: Promise<unknown>): Promise<A2AError> {
  try {
    await call;
  } catch (error) {
    expect(error).toBeInstanceOf(A2AError);
    return error as A2AError;
  }
  throw new Error('expected the call to fail');
}

describe('errors on the wire', () => {
  let t: TestServer;
  let client: GrpcTransport;

  beforeAll(async () => {
    t = await startTestServer({ grpc: { maxReceiveMessageBytes: 64 * 1024 } });
    client = new GrpcTransport({ url: t.url });
  });

  afterAll(async () => {
    client.close();
    await t.close();
  });

  /** Asserts status code, ErrorInfo (reason, domain) in the trailer, and the client's A2AError. */
  async function expectWireError(code: A2AErrorCode, raw: { error?: ServiceError }, viaClient: Promise<unknown>): Promise<void> {
    expect(raw.error).toBeDefined();
    expect(raw.error!.code).toBe(ERROR_TABLE[code].grpc);
    const details = detailsOf(raw.error!);
    expect(details.code).toBe(ERROR_TABLE[code].grpc);
    expect(details.info?.reason).toBe(code);
    expect(details.info?.domain).toBe(ERROR_TABLE[code].a2a ? 'a2a-protocol.org' : 'a2a-polyglot');
    expect((await failure(viaClient)).code).toBe(code);
  }

  const bytes = {
    getTask: (id: string) => Buffer.from(GetTaskRequest.encode(GetTaskRequest.fromPartial({ id })).finish()),
    send: (req: SendMessageRequest) => Buffer.from(SendMessageRequest.encode(req).finish()),
  };

  it('TASK_NOT_FOUND → NOT_FOUND, with the task id in ErrorInfo.metadata', async () => {
    const raw = await rawUnary(t.url, `${PATH}GetTask`, bytes.getTask('nope'));
    await expectWireError(A2AErrorCode.TaskNotFound, raw, client.getTask({ id: 'nope' }));
    expect(detailsOf(raw.error!).info?.metadata).toEqual({ taskId: 'nope' });
  });

  it('TASK_NOT_CANCELABLE → FAILED_PRECONDITION', async () => {
    const done = (await client.sendMessage(userMessage('steps 1'))).payload!.value as Task;
    const raw = await rawUnary(t.url, `${PATH}CancelTask`, bytes.getTask(done.id)); // CancelTaskRequest has the same field numbers for tenant/id
    await expectWireError(A2AErrorCode.TaskNotCancelable, raw, client.cancelTask({ id: done.id }));
  });

  it('UNSUPPORTED_OPERATION → FAILED_PRECONDITION (message to a terminal task)', async () => {
    const done = (await client.sendMessage(userMessage('steps 1'))).payload!.value as Task;
    const followUp = userMessage('again', { taskId: done.id });
    const raw = await rawUnary(t.url, `${PATH}SendMessage`, bytes.send(followUp));
    await expectWireError(A2AErrorCode.UnsupportedOperation, raw, client.sendMessage(followUp));
  });

  it('CONTENT_TYPE_NOT_SUPPORTED → INVALID_ARGUMENT', async () => {
    const req = SendMessageRequest.fromPartial({ ...userMessage('steps 1'), configuration: { acceptedOutputModes: ['image/png'] } });
    const raw = await rawUnary(t.url, `${PATH}SendMessage`, bytes.send(req));
    await expectWireError(A2AErrorCode.ContentTypeNotSupported, raw, client.sendMessage(req));
  });

  it('VERSION_NOT_SUPPORTED → FAILED_PRECONDITION when a2a-version is missing, 0.3 or unknown on the v1.0 service (our client always sends 1.0)', async () => {
    for (const md of [{}, { 'a2a-version': '9.9' }, { 'a2a-version': '0.3' }] as Array<Record<string, string>>) {
      const raw = await rawUnary(t.url, `${PATH}GetTask`, bytes.getTask('x'), md);
      expect(raw.error?.code).toBe(GrpcCode.FAILED_PRECONDITION);
      expect(detailsOf(raw.error!).info).toMatchObject({ reason: A2AErrorCode.VersionNotSupported, domain: 'a2a-protocol.org' });
    }
    expect((await failure(client.getTask({ id: 'x' }))).code).toBe(A2AErrorCode.TaskNotFound);
    // Negotiation is on Major.Minor: a patch number is the same version.
    const patched = await rawUnary(t.url, `${PATH}GetTask`, bytes.getTask('x'), { 'a2a-version': '1.0.1' });
    expect(detailsOf(patched.error!).info).toMatchObject({ reason: A2AErrorCode.TaskNotFound });
  });

  it('INVALID_PARAMS → INVALID_ARGUMENT with a BadRequest of the missing fields', async () => {
    const req = SendMessageRequest.fromPartial({ message: { messageId: '', parts: [] } });
    const raw = await rawUnary(t.url, `${PATH}SendMessage`, bytes.send(req));
    await expectWireError(A2AErrorCode.InvalidParams, raw, client.sendMessage(req));
    const fields = detailsOf(raw.error!).badRequest?.fieldViolations.map((v) => v.field);
    expect(fields).toEqual(expect.arrayContaining(['message.messageId', 'message.role', 'message.parts']));
    const viaClient = await failure(client.getTask({ id: '' }));
    expect(viaClient.fieldViolations).toEqual([{ field: 'id', description: 'required' }]);
  });

  it('malformed protobuf bytes → INVALID_ARGUMENT (PARSE_ERROR), never a crash; the server keeps serving', async () => {
    // Field 2 (id), length-delimited, claims 127 bytes but carries 2: truncated.
    const garbage = Buffer.from([0x12, 0x7f, 0x41, 0x42]);
    for (const rpc of ['GetTask', 'SendMessage', 'SendStreamingMessage', 'SubscribeToTask']) {
      const raw = await rawUnary(t.url, `${PATH}${rpc}`, garbage);
      expect(raw.error?.code).toBe(GrpcCode.INVALID_ARGUMENT);
      const details = detailsOf(raw.error!);
      expect(details.info?.reason).toBe(A2AErrorCode.ParseError);
      expect(details.info?.metadata).toEqual({ rpc });
      expect(details.message).not.toMatch(/at .*\.ts|Error:/); // no stack, no internals
    }
    expect((await client.sendMessage(userMessage('echo still alive'))).payload?.$case).toBe('message');
  });

  it('oversize request → RESOURCE_EXHAUSTED from grpc-js (PayloadTooLarge for our client); the server keeps serving', async () => {
    const big = userMessage('x'.repeat(128 * 1024));
    const raw = await rawUnary(t.url, `${PATH}SendMessage`, bytes.send(big));
    expect(raw.error?.code).toBe(GrpcCode.RESOURCE_EXHAUSTED);
    expect((await failure(client.sendMessage(big))).code).toBe(A2AErrorCode.PayloadTooLarge);
    expect((await client.sendMessage(userMessage('echo ok'))).payload?.$case).toBe('message');
  });

  it('an unknown method → UNIMPLEMENTED', async () => {
    const raw = await rawUnary(t.url, `${PATH}NoSuchRpc`, Buffer.alloc(0));
    expect(raw.error?.code).toBe(GrpcCode.UNIMPLEMENTED);
  });

  it('a failing agent fails the task, not the call', async () => {
    const res = await client.sendMessage(userMessage('fail'));
    expect((res.payload!.value as Task).status?.state).toBe(TaskState.TASK_STATE_FAILED);
  });

  it('server shutdown ends open streams with UNAVAILABLE', async () => {
    const s = await startTestServer();
    const c = new GrpcTransport({ url: s.url });
    const stream = c.sendStreamingMessage(userMessage('gate shutdown'));
    const iterator = stream[Symbol.asyncIterator]();
    await iterator.next();
    const closing = s.close();
    await expect(
      (async () => {
        for (;;) if ((await iterator.next()).done) return;
      })(),
    ).rejects.toMatchObject({ code: A2AErrorCode.Unavailable });
    await closing;
    c.close();
  });
});

describe('errors that need a differently configured server', () => {
  it('PUSH_NOTIFICATION_NOT_SUPPORTED, EXTENDED_AGENT_CARD_NOT_CONFIGURED, UNSUPPORTED_OPERATION (no streaming)', async () => {
    const s = await startTestServer({
      handler: {
        card: testCard({ capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: true, extensions: [] } }),
        extendedCard: undefined,
      },
    });
    const c = new GrpcTransport({ url: s.url });
    expect((await failure(c.listTaskPushNotificationConfigs({ taskId: 'x' }))).code).toBe(A2AErrorCode.PushNotificationNotSupported);
    const card = await rawUnary(s.url, `${PATH}GetExtendedAgentCard`, Buffer.alloc(0));
    expect(card.error?.code).toBe(GrpcCode.FAILED_PRECONDITION);
    expect(detailsOf(card.error!).info?.reason).toBe(A2AErrorCode.ExtendedAgentCardNotConfigured);
    expect((await failure(c.getExtendedAgentCard())).code).toBe(A2AErrorCode.ExtendedAgentCardNotConfigured);
    await expect(
      (async () => {
        for await (const _ of c.sendStreamingMessage(userMessage('steps 1'))) void _;
      })(),
    ).rejects.toMatchObject({ code: A2AErrorCode.UnsupportedOperation });
    c.close();
    await s.close();
  });

  it('EXTENSION_SUPPORT_REQUIRED, and the extension activated via client options', async () => {
    const uri = 'urn:required';
    const s = await startTestServer({
      handler: {
        card: testCard({
          capabilities: {
            streaming: true,
            pushNotifications: true,
            extendedAgentCard: false,
            extensions: [{ uri, description: '', required: true, params: undefined }],
          },
        }),
      },
    });
    const without = new GrpcTransport({ url: s.url });
    const raw = await rawUnary(s.url, `${PATH}GetTask`, Buffer.from(GetTaskRequest.encode(GetTaskRequest.fromPartial({ id: 'x' })).finish()));
    expect(detailsOf(raw.error!).info).toMatchObject({ reason: A2AErrorCode.ExtensionSupportRequired, metadata: { extension: uri } });
    expect((await failure(without.getTask({ id: 'x' }))).code).toBe(A2AErrorCode.ExtensionSupportRequired);
    const withExt = new GrpcTransport({ url: s.url, extensions: [uri] });
    expect((await failure(withExt.getTask({ id: 'x' }))).code).toBe(A2AErrorCode.TaskNotFound);
    without.close();
    withExt.close();
    await s.close();
  });

  it('UNAUTHENTICATED from metadata `authorization`; a valid bearer passes', async () => {
    const s = await startTestServer({ handler: { authenticator: new ApiKeyAuthenticator({ keys: { secret: 'alice' } }) } });
    const anon = new GrpcTransport({ url: s.url });
    const raw = await rawUnary(s.url, `${PATH}GetTask`, Buffer.from(GetTaskRequest.encode(GetTaskRequest.fromPartial({ id: 'x' })).finish()));
    expect(raw.error?.code).toBe(GrpcCode.UNAUTHENTICATED);
    expect((await failure(anon.getTask({ id: 'x' }))).code).toBe(A2AErrorCode.Unauthenticated);
    const alice = new GrpcTransport({ url: s.url, headers: { Authorization: 'Bearer secret' } });
    expect((await alice.sendMessage(userMessage('echo hi'))).payload?.$case).toBe('message');
    anon.close();
    alice.close();
    await s.close();
  });

  it('why the safe deserializer exists: grpc-js alone answers a throwing deserializer with INTERNAL', async () => {
    const server = new Server();
    server.addService(
      {
        echo: {
          path: '/test.Plain/Echo',
          requestStream: false,
          responseStream: false,
          requestSerialize: (b: Buffer) => b,
          requestDeserialize: (b: Buffer) => GetTaskRequest.decode(b),
          responseSerialize: (b: Buffer) => b,
          responseDeserialize: (b: Buffer) => b,
        },
      },
      { echo: (_call: unknown, cb: (e: null, r: Buffer) => void) => cb(null, Buffer.alloc(0)) },
    );
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    const raw = await rawUnary(`127.0.0.1:${port}`, '/test.Plain/Echo', Buffer.from([0x12, 0x7f, 0x41]));
    expect(raw.error?.code).toBe(GrpcCode.INTERNAL);
    expect(raw.error?.details).toMatch(/deserializ/i);
    await new Promise<void>((resolve) => server.tryShutdown(() => resolve()));
  });

  it('a server with a small size limit still answers normal requests after an oversize one', async () => {
    const s = await startTestServer({ grpc: { maxReceiveMessageBytes: 1024 } });
    const c = new GrpcTransport({ url: s.url });
    expect((await failure(c.sendMessage(userMessage('y'.repeat(4096))))).code).toBe(A2AErrorCode.PayloadTooLarge);
    await waitFor(async () => (await c.sendMessage(userMessage('echo fine'))).payload?.$case === 'message');
    c.close();
    await s.close();
  });
});
