import { A2AError, A2AErrorCode, decodeJsonRequest, OPERATIONS } from '@a2a-polyglot/core';
import { AgentCard } from '@a2a-polyglot/model';
import {
  agentCardFromV03,
  agentCardToV03,
  V03_CARD_MEMBERS,
  inV03Terms,
  mergedAgentCard,
  streamEventFromV03,
  streamEventToV03,
  toV03JsonRpcError,
  V03_METHODS,
  v03Method,
} from '../src/json/index.js';

const v03Message = {
  kind: 'message',
  role: 'user',
  messageId: 'm-1',
  parts: [
    { kind: 'text', text: 'hello' },
    { kind: 'file', file: { bytes: 'aGk=', name: 'a.txt', mimeType: 'text/plain' } },
    { kind: 'file', file: { uri: 'https://example.com/a.pdf' }, metadata: { k: 1 } },
    { kind: 'data', data: { n: 1 } },
  ],
};

/** What the server does with v0.3 params: translate, then the one strict v1.0 decoder. */
function decode(name: string, params: unknown, strict = false): unknown {
  const method = v03Method(name)!;
  return decodeJsonRequest(OPERATIONS[method.operation], method.paramsFromV03(params), { strict });
}

function violation(fn: () => unknown): { field: string; description: string } {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(A2AError);
    expect((error as A2AError).code).toBe(A2AErrorCode.InvalidParams);
    return (error as A2AError).fieldViolations[0]!;
  }
  throw new Error('expected InvalidParams');
}

describe('v0.3 JSON-RPC params → v1.0 requests', () => {
  it('translates MessageSendParams: kinds, roles, nested files; absent blocking means blocking', () => {
    const request = decode('message/send', { message: v03Message, configuration: { historyLength: 2, acceptedOutputModes: ['text/plain'] } }) as any;
    expect(request.message.role).toBe(1);
    expect(request.message.parts.map((p: any) => p.content.$case)).toEqual(['text', 'raw', 'url', 'data']);
    expect(request.message.parts[1]).toMatchObject({ filename: 'a.txt', mediaType: 'text/plain' });
    expect(Buffer.from(request.message.parts[1].content.value).toString()).toBe('hi');
    expect(request.message.parts[2].metadata).toEqual({ k: 1 });
    expect(request.configuration).toMatchObject({ historyLength: 2, returnImmediately: false });
  });

  it('inverts blocking: false into returnImmediately and maps the inline push config', () => {
    const request = decode('message/send', {
      message: v03Message,
      configuration: {
        blocking: false,
        pushNotificationConfig: { url: 'https://hook.example/x', token: 't', authentication: { schemes: ['Bearer', 'Basic'], credentials: 'c' } },
      },
    }) as any;
    expect(request.configuration.returnImmediately).toBe(true);
    expect(request.configuration.taskPushNotificationConfig).toMatchObject({
      url: 'https://hook.example/x',
      token: 't',
      authentication: { scheme: 'Bearer', credentials: 'c' },
    });
    expect((decode('message/send', { message: v03Message, configuration: { blocking: true } }) as any).configuration.returnImmediately).toBe(false);
  });

  it('rejects v0.3 structural problems with paths in v0.3 terms', () => {
    const withPart = (part: unknown) => () => decode('message/send', { message: { ...v03Message, parts: [{ kind: 'text', text: 'a' }, part] } });
    expect(violation(withPart({ kind: 'image', text: 'x' }))).toEqual({
      field: 'message.parts[1].kind',
      description: expect.stringContaining('text, file or data'),
    });
    expect(violation(withPart({ text: 'x' })).field).toBe('message.parts[1].kind');
    expect(violation(withPart({ kind: 'file', file: { name: 'a' } }))).toEqual({
      field: 'message.parts[1].file',
      description: 'needs exactly one of bytes or uri',
    });
    expect(violation(withPart({ kind: 'file', file: { bytes: 'aGk=', uri: 'https://x' } })).field).toBe('message.parts[1].file');
    expect(violation(withPart({ kind: 'file', file: { url: 'https://x' } })).field).toBe('message.parts[1].file.url');
    expect(violation(withPart({ kind: 'data', data: [1] })).field).toBe('message.parts[1].data');
    expect(violation(() => decode('message/send', { message: { ...v03Message, role: 'ROLE_USER' } })).field).toBe('message.role');
    expect(violation(() => decode('message/send', { message: { ...v03Message, kind: 'task' } })).field).toBe('message.kind');
    expect(violation(() => decode('message/send', { message: v03Message, configuration: { blocking: 'yes' } })).field).toBe('configuration.blocking');
  });

  it('leaves everything else to the v1.0 decoder (strict here), with paths renamed to v0.3 members', () => {
    const method = V03_METHODS['message/send'];
    const bad = { message: { ...v03Message, parts: [{ kind: 'file', file: { bytes: '!!not base64!!' } }], extra: 1 } };
    expect(() => decode('message/send', { message: { ...v03Message, extra: 1 } })).not.toThrow();
    let thrown: unknown;
    try {
      decode('message/send', bad, true);
    } catch (error) {
      thrown = inV03Terms(error, method.renameField);
    }
    const fields = (thrown as A2AError).fieldViolations.map((v) => v.field);
    expect(fields).toEqual(expect.arrayContaining(['message.extra', 'message.parts[0].file.bytes']));
    expect((thrown as A2AError).message).toContain('message.parts[0].file.bytes');
  });

  it('translates the task and push-config params', () => {
    expect(decode('tasks/get', { id: 't', historyLength: 3, metadata: { a: 1 } })).toMatchObject({ id: 't', historyLength: 3 });
    expect(decode('tasks/cancel', { id: 't', metadata: { a: 1 } })).toMatchObject({ id: 't', metadata: { a: 1 } });
    expect(decode('tasks/resubscribe', { id: 't', metadata: {} })).toMatchObject({ id: 't' });
    expect(
      decode('tasks/pushNotificationConfig/set', { taskId: 't', pushNotificationConfig: { url: 'https://h/x', authentication: { schemes: ['Bearer'] } } }),
    ).toMatchObject({
      taskId: 't',
      id: 't', // a v0.3 config without an id is the task's default config
      url: 'https://h/x',
      authentication: { scheme: 'Bearer' },
    });
    expect(decode('tasks/pushNotificationConfig/get', { id: 't' })).toMatchObject({ taskId: 't', id: 't' });
    expect(decode('tasks/pushNotificationConfig/get', { id: 't', pushNotificationConfigId: 'c' })).toMatchObject({ taskId: 't', id: 'c' });
    expect(decode('tasks/pushNotificationConfig/delete', { id: 't', pushNotificationConfigId: 'c', metadata: {} })).toMatchObject({ taskId: 't', id: 'c' });
    expect(decode('tasks/pushNotificationConfig/list', { id: 't' })).toEqual({ taskId: 't', pageSize: 0, pageToken: '', tenant: '' });
    expect(
      violation(() => decode('tasks/pushNotificationConfig/set', { taskId: 't', pushNotificationConfig: { url: 'u', authentication: { schemes: [] } } })).field,
    ).toBe('pushNotificationConfig.authentication.schemes');
    expect(violation(() => decode('tasks/get', 'nope')).field).toBe('params');
    expect(v03Method('GetTask')).toBeUndefined();
    expect(v03Method('tasks/list')).toBeUndefined();
  });
});

describe('v1.0 results → v0.3 results', () => {
  const task = {
    id: 't',
    contextId: 'c',
    status: {
      state: 'TASK_STATE_INPUT_REQUIRED',
      message: { messageId: 's', role: 'ROLE_AGENT', parts: [{ text: 'more?' }] },
      timestamp: '2026-01-01T00:00:00.000Z',
    },
    artifacts: [{ artifactId: 'a', parts: [{ raw: 'aGk=', filename: 'f', mediaType: 'text/plain' }, { data: 'scalar' }] }],
    history: [{ messageId: 'm', role: 'ROLE_USER', parts: [{ url: 'https://x' }] }],
  };

  it('gives tasks kind, kebab-case states, nested files and object-only data', () => {
    const out = V03_METHODS['message/send'].resultToV03({ task }) as any;
    expect(out).toMatchObject({
      kind: 'task',
      id: 't',
      contextId: 'c',
      status: { state: 'input-required', timestamp: task.status.timestamp, message: { kind: 'message', role: 'agent' } },
    });
    expect(out.artifacts[0].parts).toEqual([
      { kind: 'file', file: { bytes: 'aGk=', name: 'f', mimeType: 'text/plain' } },
      { kind: 'data', data: { value: 'scalar' } },
    ]);
    expect(out.history[0]).toEqual({ messageId: 'm', role: 'user', parts: [{ kind: 'file', file: { uri: 'https://x' } }], kind: 'message' });
    expect(V03_METHODS['tasks/get'].resultToV03({ id: 'x', status: { state: 'TASK_STATE_CANCELED' } })).toEqual({
      id: 'x',
      contextId: '',
      status: { state: 'canceled' },
      kind: 'task',
    });
  });

  it('sets final on status updates only for completed, canceled, failed and rejected', () => {
    const update = (state: string) => streamEventToV03({ statusUpdate: { taskId: 't', contextId: 'c', status: { state } } });
    expect(update('TASK_STATE_WORKING')).toEqual({ taskId: 't', contextId: 'c', kind: 'status-update', status: { state: 'working' }, final: false });
    expect(update('TASK_STATE_INPUT_REQUIRED').final).toBe(false);
    for (const state of ['TASK_STATE_COMPLETED', 'TASK_STATE_CANCELED', 'TASK_STATE_FAILED', 'TASK_STATE_REJECTED']) expect(update(state).final).toBe(true);
    expect(
      streamEventToV03({
        artifactUpdate: { taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [{ text: 'x' }] }, append: true, lastChunk: true },
      }),
    ).toEqual({
      taskId: 't',
      contextId: 'c',
      kind: 'artifact-update',
      artifact: { artifactId: 'a', parts: [{ kind: 'text', text: 'x' }] },
      append: true,
      lastChunk: true,
    });
  });

  it('reads v0.3 events back into the same v1.0 events', () => {
    const events = [
      { task: { ...task, artifacts: [{ artifactId: 'a', parts: [{ raw: 'aGk=', filename: 'f', mediaType: 'text/plain' }] }] } },
      { message: { messageId: 'm', role: 'ROLE_AGENT', parts: [{ text: 'hi' }, { data: { a: 1 }, mediaType: 'application/json' }] } },
      { statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } } },
      { artifactUpdate: { taskId: 't', contextId: 'c', artifact: { artifactId: 'a', parts: [{ text: 'x' }] }, lastChunk: true } },
    ];
    for (const event of events) expect(streamEventFromV03(streamEventToV03(event), 'result')).toEqual(event);
    expect(() => streamEventFromV03({ kind: 'nope' }, 'result')).toThrow(A2AError);
  });

  it('translates push configs and their list both ways', () => {
    const v1 = { taskId: 't', id: 'c', url: 'https://h/x', token: 'tok', authentication: { scheme: 'Bearer', credentials: 'k' } };
    const v03 = {
      taskId: 't',
      pushNotificationConfig: { id: 'c', url: 'https://h/x', token: 'tok', authentication: { schemes: ['Bearer'], credentials: 'k' } },
    };
    expect(V03_METHODS['tasks/pushNotificationConfig/get'].resultToV03(v1)).toEqual(v03);
    expect(V03_METHODS['tasks/pushNotificationConfig/set'].resultFromV03(v03)).toEqual(v1);
    expect(V03_METHODS['tasks/pushNotificationConfig/list'].resultToV03({ configs: [v1] })).toEqual([v03]);
    expect(V03_METHODS['tasks/pushNotificationConfig/list'].resultFromV03([v03])).toEqual({ configs: [v1] });
    expect(V03_METHODS['tasks/pushNotificationConfig/delete'].resultToV03(undefined)).toBeNull();
    expect(V03_METHODS['tasks/pushNotificationConfig/set'].paramsToV03(v1)).toEqual(v03);
    expect(V03_METHODS['tasks/pushNotificationConfig/get'].paramsToV03({ taskId: 't', id: 'c' })).toEqual({ id: 't', pushNotificationConfigId: 'c' });
  });

  it('writes v0.3 send params with an explicit blocking, and they read back as the same request', () => {
    const request = { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'hi' }] }, configuration: { returnImmediately: true, historyLength: 1 } };
    const params = V03_METHODS['message/send'].paramsToV03(request) as any;
    expect(params.configuration).toEqual({ historyLength: 1, blocking: false });
    expect(params.message.kind).toBe('message');
    expect(V03_METHODS['message/send'].paramsFromV03(params)).toEqual(request);
  });
});

describe('v0.3 errors', () => {
  it('uses the v0.3 column of the one error table and keeps the details as free-form data', () => {
    expect(toV03JsonRpcError(new A2AError(A2AErrorCode.TaskNotFound))).toMatchObject({ code: -32001, message: 'Task not found' });
    const version = toV03JsonRpcError(new A2AError(A2AErrorCode.VersionNotSupported, 'no'));
    expect(version.code).toBe(-32600);
    expect(version.data[0]).toMatchObject({ reason: 'VERSION_NOT_SUPPORTED' });
  });
});

describe('v0.3 agent card', () => {
  const v1 = {
    name: 'n',
    description: 'd',
    version: '1',
    supportedInterfaces: [
      { url: 'http://h/a2a/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: 'http://h/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
      { url: 'h:50051', protocolBinding: 'GRPC', protocolVersion: '1.0' },
      { url: 'ws://h/a2a/ws', protocolBinding: 'https://example/ws', protocolVersion: '1.0' },
      { url: 'http://h/a2a/rpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: 'http://h/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
      { url: 'h:50051', protocolBinding: 'GRPC', protocolVersion: '0.3' },
    ],
    capabilities: { streaming: true, extendedAgentCard: true },
    securitySchemes: {
      key: { apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' } },
      bearer: { httpAuthSecurityScheme: { scheme: 'Bearer', bearerFormat: 'JWT' } },
      oauth: { oauth2SecurityScheme: { flows: { authorizationCode: { authorizationUrl: 'a', tokenUrl: 't', scopes: {}, pkceRequired: true } } } },
      oidc: { openIdConnectSecurityScheme: { openIdConnectUrl: 'o' } },
      mtls: { mtlsSecurityScheme: { description: 'm' } },
    },
    securityRequirements: [{ schemes: { key: { list: [] }, oauth: { list: ['read'] } } }],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 's', description: 's', tags: [], securityRequirements: [{ schemes: { key: { list: [] } } }] }],
  };

  it('builds a pure v0.3 card: url, preferredTransport, additionalInterfaces, v0.3 security', () => {
    const card = agentCardToV03(v1) as any;
    expect(card).toMatchObject({
      protocolVersion: '0.3.0',
      url: 'http://h/a2a/rpc',
      preferredTransport: 'JSONRPC',
      additionalInterfaces: [
        { url: 'http://h/a2a/rpc', transport: 'JSONRPC' },
        { url: 'http://h/a2a', transport: 'HTTP+JSON' },
        { url: 'h:50051', transport: 'GRPC' },
      ],
      supportsAuthenticatedExtendedCard: true,
      capabilities: { streaming: true },
      security: [{ key: [], oauth: ['read'] }],
    });
    expect(card.supportedInterfaces).toBeUndefined();
    expect(card.capabilities.extendedAgentCard).toBeUndefined();
    expect(card.securitySchemes).toEqual({
      key: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      bearer: { type: 'http', scheme: 'Bearer', bearerFormat: 'JWT' },
      oauth: { type: 'oauth2', flows: { authorizationCode: { authorizationUrl: 'a', tokenUrl: 't', scopes: {} } } },
      oidc: { type: 'openIdConnect', openIdConnectUrl: 'o' },
      mtls: { type: 'mutualTLS', description: 'm' },
    });
    expect(card.skills[0]).toEqual({ id: 's', name: 's', description: 's', tags: [], security: [{ key: [] }] });
  });

  it('lists only entries a v0.3 client can follow to this agent: declared 0.3, no tenant', () => {
    // What a mounted agent's card holds: its gRPC entries name it by tenant (1.0 only), its
    // HTTP entries are its own URLs; a 1.0-only endpoint elsewhere need not speak 0.3 at all.
    const mounted = {
      ...v1,
      supportedInterfaces: [
        { url: 'http://h/agents/b/a2a/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'h:50051', protocolBinding: 'GRPC', protocolVersion: '1.0', tenant: 'b' },
        { url: 'h:50052', protocolBinding: 'GRPC', protocolVersion: '0.3', tenant: 'b' },
        { url: 'http://other/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
        { url: 'http://h/agents/b/a2a/rpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
        { url: 'http://h/agents/b/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3.0' },
      ],
    };
    for (const card of [agentCardToV03(mounted), mergedAgentCard(mounted)] as any[]) {
      expect(card.url).toBe('http://h/agents/b/a2a/rpc');
      expect(card.preferredTransport).toBe('JSONRPC');
      expect(card.additionalInterfaces).toEqual([
        { url: 'http://h/agents/b/a2a/rpc', transport: 'JSONRPC' },
        { url: 'http://h/agents/b/a2a', transport: 'HTTP+JSON' },
      ]);
    }
  });

  it('reads a v0.3 card back as v1.0: interfaces at protocolVersion 0.3, extended card capability, security', () => {
    const back = agentCardFromV03(agentCardToV03(v1)) as any;
    expect(back.supportedInterfaces).toEqual([
      { url: 'http://h/a2a/rpc', protocolBinding: 'JSONRPC', protocolVersion: '0.3' },
      { url: 'http://h/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
      { url: 'h:50051', protocolBinding: 'GRPC', protocolVersion: '0.3' },
    ]);
    const { supportedInterfaces: _, ...rest } = back;
    const lossless = { ...v1, capabilities: { streaming: true, extendedAgentCard: true } };
    // PKCE has no v0.3 form; everything else comes back as it was.
    lossless.securitySchemes = {
      ...v1.securitySchemes,
      oauth: { oauth2SecurityScheme: { flows: { authorizationCode: { authorizationUrl: 'a', tokenUrl: 't', scopes: {} } } } },
    } as any;
    const { supportedInterfaces: __, ...expected } = lossless;
    expect(rest).toEqual(expected);
    for (const key of V03_CARD_MEMBERS) expect(back[key]).toBeUndefined();
  });

  it('merges: the v1.0 card plus the v0.3 top-level members, security in both forms', () => {
    const card = mergedAgentCard(v1) as any;
    expect(card).toMatchObject({
      ...v1,
      protocolVersion: '0.3.0',
      url: 'http://h/a2a/rpc',
      preferredTransport: 'JSONRPC',
      supportsAuthenticatedExtendedCard: true,
    });
    expect(card.additionalInterfaces).toHaveLength(3);
    expect(card.securitySchemes.key).toEqual({
      type: 'apiKey',
      in: 'header',
      name: 'X-API-Key',
      apiKeySecurityScheme: { location: 'header', name: 'X-API-Key' },
    });
    expect(card.security).toEqual([{ key: [], oauth: ['read'] }]);
    expect(card.skills[0].security).toEqual([{ key: [] }]);
    // A lenient v1.0 reader (ts-proto fromJSON, as the official SDKs read cards) sees the v1.0 card.
    expect(AgentCard.toJSON(AgentCard.fromJSON(card))).toEqual(AgentCard.toJSON(AgentCard.fromJSON(v1)));
  });
});
