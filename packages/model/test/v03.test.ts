import { V03A2AServiceService } from '../src/grpc.js';
import { parseProtoJson, PROTO_SCHEMA, ProtoJsonError, validateProtoJson } from '../src/index.js';
import { SendMessageRequest, Task, TaskState } from '../src/v03.js';

describe('the v0.3 proto (package a2a.v1)', () => {
  it('serves the 10 v0.3 RPCs under /a2a.v1.A2AService/', () => {
    expect(
      Object.values(V03A2AServiceService)
        .map((m) => `${m.path}${m.responseStream ? ' (stream)' : ''}`)
        .sort(),
    ).toEqual([
      '/a2a.v1.A2AService/CancelTask',
      '/a2a.v1.A2AService/CreateTaskPushNotificationConfig',
      '/a2a.v1.A2AService/DeleteTaskPushNotificationConfig',
      '/a2a.v1.A2AService/GetAgentCard',
      '/a2a.v1.A2AService/GetTask',
      '/a2a.v1.A2AService/GetTaskPushNotificationConfig',
      '/a2a.v1.A2AService/ListTaskPushNotificationConfig',
      '/a2a.v1.A2AService/SendMessage',
      '/a2a.v1.A2AService/SendStreamingMessage (stream)',
      '/a2a.v1.A2AService/TaskSubscription (stream)',
    ]);
  });

  it('uses the official field numbers (Message.content = 5, TaskStatus.update = 2, FilePart bytes = 2)', () => {
    const bytes = SendMessageRequest.encode(
      SendMessageRequest.fromJSON({ message: { messageId: 'm', role: 'ROLE_USER', content: [{ file: { fileWithBytes: 'AQ==' } }] } }),
    ).finish();
    // request(1) { message_id(1) "m", role(4) 1, content(5) { file(2) { file_with_bytes(2) 0x01 } } }
    expect(Buffer.from(bytes).toString('hex')).toBe('0a0c' + '0a016d' + '2001' + '2a05' + '1203' + '1201' + '01');
    expect(Task.toJSON(Task.fromPartial({ id: 't', status: { state: TaskState.TASK_STATE_CANCELLED, update: { messageId: 's' } } }))).toEqual({
      id: 't',
      status: { state: 'TASK_STATE_CANCELLED', message: { messageId: 's' } },
    });
  });

  it('is validated strictly by the same ProtoJSON validator: v1.0 shapes are unknown fields here', () => {
    expect(
      validateProtoJson('a2a.v1.SendMessageRequest', {
        message: { messageId: 'm', role: 'ROLE_USER', content: [{ text: 'x' }] },
        configuration: { blocking: true },
      }),
    ).toEqual([]);
    const violations = validateProtoJson('a2a.v1.SendMessageRequest', { message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'x' }] } });
    expect(violations.map((v) => v.field)).toEqual(['message.parts']);
    expect(() => parseProtoJson('a2a.v1.Task', Task, { status: { state: 'TASK_STATE_CANCELED' } })).toThrow(ProtoJsonError);
  });
});

/** The v0.3 proto's messages as `field=number` lists (spec §12.6, incl. the fields added after the v0.3.0 tag). */
const V03_FIELDS: Record<string, string> = {
  SendMessageConfiguration: 'accepted_output_modes=1 push_notification=2 history_length=3 blocking=4',
  Task: 'id=1 context_id=2 status=3 artifacts=4 history=5 metadata=6',
  TaskStatus: 'state=1 update=2 timestamp=3',
  Part: 'text=1 file=2 data=3 metadata=4',
  FilePart: 'file_with_uri=1 file_with_bytes=2 mime_type=3 name=4',
  DataPart: 'data=1',
  Message: 'message_id=1 context_id=2 task_id=3 role=4 content=5 metadata=6 extensions=7',
  Artifact: 'artifact_id=1 name=3 description=4 parts=5 metadata=6 extensions=7',
  TaskStatusUpdateEvent: 'task_id=1 context_id=2 status=3 final=4 metadata=5',
  TaskArtifactUpdateEvent: 'task_id=1 context_id=2 artifact=3 append=4 last_chunk=5 metadata=6',
  PushNotificationConfig: 'id=1 url=2 token=3 authentication=4',
  AuthenticationInfo: 'schemes=1 credentials=2',
  TaskPushNotificationConfig: 'name=1 push_notification_config=2',
  AgentInterface: 'url=1 transport=2',
  AgentCard:
    'protocol_version=16 name=1 description=2 url=3 preferred_transport=14 additional_interfaces=15 provider=4 version=5 documentation_url=6 capabilities=7 security_schemes=8 security=9 default_input_modes=10 default_output_modes=11 skills=12 supports_authenticated_extended_card=13 signatures=17 icon_url=18',
  AgentProvider: 'url=1 organization=2',
  AgentCapabilities: 'streaming=1 push_notifications=2 extensions=3',
  AgentExtension: 'uri=1 description=2 required=3 params=4',
  AgentSkill: 'id=1 name=2 description=3 tags=4 examples=5 input_modes=6 output_modes=7 security=8',
  AgentCardSignature: 'protected=1 signature=2 header=3',
  StringList: 'list=1',
  Security: 'schemes=1',
  SecurityScheme: 'api_key_security_scheme=1 http_auth_security_scheme=2 oauth2_security_scheme=3 open_id_connect_security_scheme=4 mtls_security_scheme=5',
  APIKeySecurityScheme: 'description=1 location=2 name=3',
  HTTPAuthSecurityScheme: 'description=1 scheme=2 bearer_format=3',
  OAuth2SecurityScheme: 'description=1 flows=2 oauth2_metadata_url=3',
  OpenIdConnectSecurityScheme: 'description=1 open_id_connect_url=2',
  MutualTlsSecurityScheme: 'description=1',
  OAuthFlows: 'authorization_code=1 client_credentials=2 implicit=3 password=4',
  AuthorizationCodeOAuthFlow: 'authorization_url=1 token_url=2 refresh_url=3 scopes=4',
  ClientCredentialsOAuthFlow: 'token_url=1 refresh_url=2 scopes=3',
  ImplicitOAuthFlow: 'authorization_url=1 refresh_url=2 scopes=3',
  PasswordOAuthFlow: 'token_url=1 refresh_url=2 scopes=3',
  SendMessageRequest: 'request=1 configuration=2 metadata=3',
  GetTaskRequest: 'name=1 history_length=2',
  CancelTaskRequest: 'name=1',
  GetTaskPushNotificationConfigRequest: 'name=1',
  DeleteTaskPushNotificationConfigRequest: 'name=1',
  CreateTaskPushNotificationConfigRequest: 'parent=1 config_id=2 config=3',
  TaskSubscriptionRequest: 'name=1',
  ListTaskPushNotificationConfigRequest: 'parent=1 page_size=2 page_token=3',
  GetAgentCardRequest: '',
  SendMessageResponse: 'task=1 msg=2',
  StreamResponse: 'task=1 msg=2 status_update=3 artifact_update=4',
  ListTaskPushNotificationConfigResponse: 'configs=1 next_page_token=2',
};

describe('the v0.3 schema matches the spec field table (§12.6)', () => {
  it('has exactly the v0.3 messages, fields and numbers', () => {
    const table = Object.fromEntries(
      Object.entries(PROTO_SCHEMA.messages)
        .filter(([name]) => name.startsWith('a2a.v1.'))
        .map(([name, fields]) => [name.slice('a2a.v1.'.length), fields.map((f) => `${f.name}=${f.no}`).join(' ')]),
    );
    const sortFields = (t: Record<string, string>) => Object.fromEntries(Object.entries(t).map(([k, v]) => [k, v.split(' ').sort().join(' ')]));
    expect(sortFields(table)).toEqual(sortFields(V03_FIELDS));
  });

  it('has the v0.3 enums (CANCELLED spelling) and the official JSON names', () => {
    expect(PROTO_SCHEMA.enums['a2a.v1.TaskState']).toEqual({
      TASK_STATE_UNSPECIFIED: 0,
      TASK_STATE_SUBMITTED: 1,
      TASK_STATE_WORKING: 2,
      TASK_STATE_COMPLETED: 3,
      TASK_STATE_FAILED: 4,
      TASK_STATE_CANCELLED: 5,
      TASK_STATE_INPUT_REQUIRED: 6,
      TASK_STATE_REJECTED: 7,
      TASK_STATE_AUTH_REQUIRED: 8,
    });
    expect(PROTO_SCHEMA.enums['a2a.v1.Role']).toEqual({ ROLE_UNSPECIFIED: 0, ROLE_USER: 1, ROLE_AGENT: 2 });
    const json = (msg: string, field: string) => PROTO_SCHEMA.messages[`a2a.v1.${msg}`]!.find((f) => f.name === field)!.json;
    expect([json('TaskStatus', 'update'), json('SendMessageRequest', 'request'), json('SendMessageResponse', 'msg'), json('StreamResponse', 'msg')]).toEqual([
      'message',
      'message',
      'message',
      'message',
    ]);
    expect(json('Message', 'content')).toBe('content');
    expect(json('FilePart', 'file_with_bytes')).toBe('fileWithBytes');
  });
});
