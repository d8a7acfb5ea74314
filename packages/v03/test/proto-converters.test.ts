import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import * as v1 from '@a2a-polyglot/model';
import * as v03 from '@a2a-polyglot/model/v03';
import {
  agentCardToV03,
  agentCardToV1,
  cancelTaskRequestToV1,
  createPushConfigRequestToV03,
  createPushConfigRequestToV1,
  deletePushConfigRequestToV1,
  getPushConfigRequestToV03,
  getPushConfigRequestToV1,
  getTaskRequestToV03,
  getTaskRequestToV1,
  listPushConfigsRequestToV1,
  listPushConfigsResponseToV03,
  listPushConfigsResponseToV1,
  messageToV03,
  messageToV1,
  partToV03,
  partToV1,
  sendMessageRequestToV03,
  sendMessageRequestToV1,
  sendMessageResponseToV03,
  sendMessageResponseToV1,
  streamResponseToV03,
  streamResponseToV1,
  subscribeRequestToV1,
  taskPushConfigToV1,
  taskToV03,
  taskToV1,
} from '../src/proto/index.js';

const userMessage = v1.Message.fromPartial({
  messageId: 'm1',
  contextId: 'c1',
  taskId: 't1',
  role: v1.Role.ROLE_USER,
  parts: [
    { content: { $case: 'text', value: 'hi' } },
    { content: { $case: 'raw', value: new Uint8Array([1, 2, 3]) }, filename: 'a.bin', mediaType: 'application/octet-stream' },
    { content: { $case: 'url', value: 'https://example.com/f.png' }, filename: 'f.png', mediaType: 'image/png' },
    { content: { $case: 'data', value: { k: [1, 'x'] } }, metadata: { m: true }, mediaType: 'application/json' },
  ],
  metadata: { a: 1 },
  extensions: ['urn:x'],
});

function expectInvalidParams(fn: () => unknown, field: string): void {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(A2AError);
    expect((error as A2AError).code).toBe(A2AErrorCode.InvalidParams);
    expect((error as A2AError).fieldViolations[0]?.field).toBe(field);
    return;
  }
  throw new Error('expected InvalidParams');
}

describe('v0.3 proto converters', () => {
  it('maps message parts both ways: content ⇄ parts, FilePart ⇄ raw/url + filename/mediaType, DataPart struct', () => {
    const old = messageToV03(userMessage);
    expect(v03.Message.toJSON(old)).toEqual({
      messageId: 'm1',
      contextId: 'c1',
      taskId: 't1',
      role: 'ROLE_USER',
      content: [
        { text: 'hi' },
        { file: { fileWithBytes: 'AQID', mimeType: 'application/octet-stream', name: 'a.bin' } },
        { file: { fileWithUri: 'https://example.com/f.png', mimeType: 'image/png', name: 'f.png' } },
        { data: { data: { k: [1, 'x'] } }, metadata: { m: true } },
      ],
      metadata: { a: 1 },
      extensions: ['urn:x'],
    });
    expect(messageToV1(old)).toEqual(userMessage);
  });

  it('wraps a non-object data value (v0.3 DataPart holds a Struct) and drops text filenames', () => {
    expect(partToV03(v1.Part.fromPartial({ content: { $case: 'data', value: [1, 2] } })).part).toEqual({ $case: 'data', value: { data: { value: [1, 2] } } });
    expect(partToV03(v1.Part.fromPartial({ content: { $case: 'text', value: 'x' }, filename: 'n.txt' }))).toEqual({
      part: { $case: 'text', value: 'x' },
      metadata: undefined,
    });
    expect(partToV1(v03.Part.fromPartial({})).content).toBeUndefined();
    expect(partToV1({ part: { $case: 'data', value: { data: { a: 1 } } }, metadata: undefined }).mediaType).toBe('application/json');
  });

  it('maps a task both ways, CANCELED ⇄ CANCELLED and status message ⇄ update', () => {
    const task = v1.Task.fromPartial({
      id: 't1',
      contextId: 'c1',
      status: {
        state: v1.TaskState.TASK_STATE_CANCELED,
        message: { messageId: 's', role: v1.Role.ROLE_AGENT, parts: [{ content: { $case: 'text', value: 'bye' } }] },
        timestamp: '2026-01-01T00:00:00.000Z',
      },
      artifacts: [{ artifactId: 'a1', name: 'out', parts: [{ content: { $case: 'text', value: 'r' } }] }],
      history: [userMessage],
    });
    const old = taskToV03(task);
    const json = v03.Task.toJSON(old) as Record<string, any>;
    expect(json.status.state).toBe('TASK_STATE_CANCELLED');
    expect(json.status.message.content).toEqual([{ text: 'bye' }]);
    expect(json.artifacts[0]).toEqual({ artifactId: 'a1', name: 'out', parts: [{ text: 'r' }] });
    expect(taskToV1(old)).toEqual(task);
  });

  it('sets final on status updates exactly for terminal states', () => {
    const update = (state: v1.TaskState) =>
      streamResponseToV03({
        payload: { $case: 'statusUpdate', value: v1.TaskStatusUpdateEvent.fromPartial({ taskId: 't', contextId: 'c', status: { state } }) },
      });
    const finalOf = (r: v03.StreamResponse) => (r.payload?.$case === 'statusUpdate' ? r.payload.value.final : undefined);
    for (const s of [v1.TaskState.TASK_STATE_COMPLETED, v1.TaskState.TASK_STATE_FAILED, v1.TaskState.TASK_STATE_CANCELED, v1.TaskState.TASK_STATE_REJECTED]) {
      expect(finalOf(update(s))).toBe(true);
    }
    for (const s of [
      v1.TaskState.TASK_STATE_WORKING,
      v1.TaskState.TASK_STATE_INPUT_REQUIRED,
      v1.TaskState.TASK_STATE_AUTH_REQUIRED,
      v1.TaskState.TASK_STATE_SUBMITTED,
    ]) {
      expect(finalOf(update(s))).toBe(false);
    }
    const back = streamResponseToV1(update(v1.TaskState.TASK_STATE_COMPLETED));
    expect(v1.StreamResponse.toJSON(back)).toEqual({ statusUpdate: { taskId: 't', contextId: 'c', status: { state: 'TASK_STATE_COMPLETED' } } });
  });

  it('maps every stream payload and send response both ways (msg ⇄ message)', () => {
    const events: v1.StreamResponse[] = [
      { payload: { $case: 'task', value: v1.Task.fromPartial({ id: 't', contextId: 'c', status: { state: v1.TaskState.TASK_STATE_WORKING } }) } },
      { payload: { $case: 'message', value: userMessage } },
      {
        payload: {
          $case: 'artifactUpdate',
          value: v1.TaskArtifactUpdateEvent.fromPartial({
            taskId: 't',
            contextId: 'c',
            append: true,
            lastChunk: true,
            artifact: { artifactId: 'a', parts: [] },
          }),
        },
      },
    ];
    for (const e of events) expect(streamResponseToV1(streamResponseToV03(e))).toEqual(e);
    expect(v03.StreamResponse.toJSON(streamResponseToV03(events[1]!))).toHaveProperty('message.content');
    const sent: v1.SendMessageResponse = { payload: { $case: 'message', value: userMessage } };
    expect(sendMessageResponseToV03(sent).payload?.$case).toBe('msg');
    expect(sendMessageResponseToV1(sendMessageResponseToV03(sent))).toEqual(sent);
  });

  it('maps SendMessage requests: blocking ⇄ returnImmediately, history 0 = unset, inline push config', () => {
    const old = v03.SendMessageRequest.fromJSON({
      message: { messageId: 'm', role: 'ROLE_USER', content: [{ text: 'x' }] },
      configuration: {
        blocking: false,
        historyLength: 0,
        acceptedOutputModes: ['text/plain'],
        pushNotification: { url: 'https://h/w', token: 'tok', authentication: { schemes: ['Bearer'], credentials: 'c' } },
      },
    });
    const req = sendMessageRequestToV1(old);
    expect(req.configuration).toEqual({
      acceptedOutputModes: ['text/plain'],
      historyLength: undefined,
      returnImmediately: true,
      taskPushNotificationConfig: { tenant: '', id: '', taskId: '', url: 'https://h/w', token: 'tok', authentication: { scheme: 'Bearer', credentials: 'c' } },
    });
    expect(sendMessageRequestToV1({ ...old, configuration: undefined }).configuration).toBeUndefined();
    const round = sendMessageRequestToV03(req);
    expect(round.configuration?.blocking).toBe(false);
    expect(round.configuration?.pushNotification?.authentication?.schemes).toEqual(['Bearer']);
    expect(sendMessageRequestToV03(v1.SendMessageRequest.fromPartial({ message: userMessage })).configuration?.blocking).toBe(true);
  });

  it('maps resource names to ids and refuses malformed names with InvalidParams on the field', () => {
    expect(getTaskRequestToV1({ name: 'tasks/t9', historyLength: 3 })).toEqual({ tenant: '', id: 't9', historyLength: 3 });
    expect(getTaskRequestToV1({ name: 'tasks/t9', historyLength: 0 }).historyLength).toBeUndefined();
    expect(getTaskRequestToV03({ tenant: '', id: 't9', historyLength: 2 })).toEqual({ name: 'tasks/t9', historyLength: 2 });
    expect(cancelTaskRequestToV1({ name: 'tasks/t9' }).id).toBe('t9');
    expect(subscribeRequestToV1({ name: 'tasks/t9' }).id).toBe('t9');
    expectInvalidParams(() => getTaskRequestToV1({ name: 't9', historyLength: 0 }), 'name');
    expectInvalidParams(() => cancelTaskRequestToV1({ name: 'tasks/a/b' }), 'name');
    expectInvalidParams(() => listPushConfigsRequestToV1({ parent: '', pageSize: 0, pageToken: '' }), 'parent');
    expectInvalidParams(() => getPushConfigRequestToV1({ name: 'tasks/t/pushNotificationConfigs/' }), 'name');
  });

  it('maps push configs both ways (resource names, config id from config_id or the config)', () => {
    const config = v1.TaskPushNotificationConfig.fromPartial({
      id: 'p1',
      taskId: 't1',
      url: 'https://h/w',
      token: 'k',
      authentication: { scheme: 'Bearer', credentials: 'c' },
    });
    const create = createPushConfigRequestToV03(config);
    expect(create.parent).toBe('tasks/t1');
    expect(create.config?.name).toBe('tasks/t1/pushNotificationConfigs/p1');
    expect(createPushConfigRequestToV1(create)).toEqual(config);
    expect(createPushConfigRequestToV1({ ...create, configId: '' })).toEqual(config);
    expect(createPushConfigRequestToV1({ parent: 'tasks/t1', configId: 'x', config: undefined })).toMatchObject({ taskId: 't1', id: 'x', url: '' });
    // What the 0.3 SDK client sends for a config without id.
    expect(
      taskPushConfigToV1({ name: 'tasks/t1/pushNotificationConfigs/', pushNotificationConfig: { id: '', url: 'u', token: '', authentication: undefined } }),
    ).toMatchObject({ taskId: 't1', id: '' });
    expect(getPushConfigRequestToV1(getPushConfigRequestToV03({ tenant: '', taskId: 't1', id: 'p1' }))).toEqual({ tenant: '', taskId: 't1', id: 'p1' });
    expect(deletePushConfigRequestToV1({ name: 'tasks/t1/pushNotificationConfigs/p1' })).toEqual({ tenant: '', taskId: 't1', id: 'p1' });
    const list = { configs: [config], nextPageToken: 'n' };
    expect(listPushConfigsResponseToV1(listPushConfigsResponseToV03(list))).toEqual(list);
  });

  it('derives the v0.3 card from the v1.0 card and back', () => {
    const card = v1.AgentCard.fromPartial({
      name: 'n',
      description: 'd',
      version: '1',
      supportedInterfaces: [
        { url: 'http://h/a2a/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
        { url: 'h:50051', protocolBinding: 'GRPC', protocolVersion: '1.0' },
        { url: 'h:50051', protocolBinding: 'GRPC', protocolVersion: '0.3' },
        { url: 'http://h/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '0.3' },
      ],
      capabilities: { streaming: true, extendedAgentCard: true },
      securitySchemes: {
        k: { scheme: { $case: 'apiKeySecurityScheme', value: { description: '', location: 'header', name: 'X-Key' } } },
        o: {
          scheme: {
            $case: 'oauth2SecurityScheme',
            value: {
              description: '',
              oauth2MetadataUrl: '',
              flows: {
                flow: { $case: 'authorizationCode', value: { authorizationUrl: 'a', tokenUrl: 't', refreshUrl: '', scopes: { s: 'x' }, pkceRequired: true } },
              },
            },
          },
        },
      },
      securityRequirements: [{ schemes: { k: { list: [] } } }],
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [{ id: 's', name: 's', description: 'd', tags: ['t'], securityRequirements: [{ schemes: { k: { list: ['r'] } } }] }],
    });
    const old = agentCardToV03(card);
    const json = v03.AgentCard.toJSON(old) as Record<string, any>;
    expect(json).toMatchObject({
      protocolVersion: '0.3.0',
      url: 'h:50051',
      preferredTransport: 'GRPC',
      additionalInterfaces: [
        { url: 'h:50051', transport: 'GRPC' },
        { url: 'http://h/a2a', transport: 'HTTP+JSON' },
      ],
      capabilities: { streaming: true },
      supportsAuthenticatedExtendedCard: true,
      security: [{ schemes: { k: {} } }],
    });
    expect(json.skills[0].security).toEqual([{ schemes: { k: { list: ['r'] } } }]);
    expect(json.securitySchemes.o.oauth2SecurityScheme.flows.authorizationCode).toEqual({ authorizationUrl: 'a', tokenUrl: 't', scopes: { s: 'x' } });
    const back = agentCardToV1(old);
    expect(back.supportedInterfaces).toEqual([
      { url: 'h:50051', protocolBinding: 'GRPC', tenant: '', protocolVersion: '0.3' },
      { url: 'http://h/a2a', protocolBinding: 'HTTP+JSON', tenant: '', protocolVersion: '0.3' },
    ]);
    expect(back.capabilities?.extendedAgentCard).toBe(true);
    expect(back.skills[0]?.securityRequirements).toEqual(card.skills[0]?.securityRequirements);
  });
});
