import { BinaryReader } from '@bufbuild/protobuf/wire';
import {
  AgentCapabilities,
  AgentCard,
  type DeepPartial,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTasksRequest,
  PROTO_SCHEMA,
  Part,
  SecurityScheme,
  SendMessageConfiguration,
  StreamResponse,
  Task,
  TaskArtifactUpdateEvent,
  TaskPushNotificationConfig,
  TaskStatusUpdateEvent,
} from '@a2a-polyglot/model';

/** Field numbers (and wire types) of the top-level tags in an encoded message. */
function tags(bytes: Uint8Array): Array<[number, number]> {
  const reader = new BinaryReader(bytes);
  const out: Array<[number, number]> = [];
  while (reader.pos < reader.len) {
    const tag = reader.uint32();
    out.push([tag >>> 3, tag & 7]);
    reader.skip(tag & 7);
  }
  return out;
}

const VARINT = 0;
const LEN = 2;

describe('wire tags of key messages (field numbers of the A2A v1.0 proto)', () => {
  it('ListTaskPushNotificationConfigsRequest: task_id 1, page_size 2, page_token 3, tenant 4', () => {
    const bytes = ListTaskPushNotificationConfigsRequest.encode(
      ListTaskPushNotificationConfigsRequest.fromPartial({ tenant: 'acme', taskId: 't', pageSize: 5, pageToken: 'p' }),
    ).finish();
    expect(tags(bytes)).toEqual([
      [1, LEN],
      [2, VARINT],
      [3, LEN],
      [4, LEN],
    ]);
    expect(tags(ListTaskPushNotificationConfigsRequest.encode(ListTaskPushNotificationConfigsRequest.fromPartial({ tenant: 'x' })).finish())).toEqual([
      [4, LEN],
    ]);
  });

  it('AgentCapabilities.extended_agent_card is field 4 (not 5)', () => {
    const bytes = AgentCapabilities.encode(AgentCapabilities.fromPartial({ extendedAgentCard: true })).finish();
    expect(Array.from(bytes)).toEqual([(4 << 3) | VARINT, 1]);
    // proto3 optional: explicitly false is still on the wire
    expect(tags(AgentCapabilities.encode(AgentCapabilities.fromPartial({ streaming: false })).finish())).toEqual([[1, VARINT]]);
  });

  it('AgentCard.icon_url is 14, documentation_url is 6, security_schemes is 8', () => {
    expect(tags(AgentCard.encode(AgentCard.fromPartial({ iconUrl: 'https://x/i.png' })).finish())).toEqual([[14, LEN]]);
    expect(tags(AgentCard.encode(AgentCard.fromPartial({ documentationUrl: '' })).finish())).toEqual([[6, LEN]]);
    expect(
      tags(AgentCard.encode(AgentCard.fromPartial({ securitySchemes: { a: { scheme: { $case: 'mtlsSecurityScheme', value: {} } } } })).finish())[0]?.[0],
    ).toBe(8);
  });

  it('Part oneof content: text 1, raw 2, url 3, data 4; filename 6, media_type 7', () => {
    const t = (p: DeepPartial<Part>) => tags(Part.encode(Part.fromPartial(p)).finish());
    expect(t({ content: { $case: 'text', value: 'x' } })).toEqual([[1, LEN]]);
    expect(t({ content: { $case: 'raw', value: new Uint8Array([1]) } })).toEqual([[2, LEN]]);
    expect(t({ content: { $case: 'url', value: 'u' } })).toEqual([[3, LEN]]);
    expect(t({ content: { $case: 'data', value: { a: 1 } } })).toEqual([[4, LEN]]);
    expect(t({ filename: 'f', mediaType: 'm' })).toEqual([
      [6, LEN],
      [7, LEN],
    ]);
  });

  it('StreamResponse payload: status_update 3, artifact_update 4', () => {
    const status = StreamResponse.fromPartial({ payload: { $case: 'statusUpdate', value: { taskId: 't' } } });
    const artifact = StreamResponse.fromPartial({ payload: { $case: 'artifactUpdate', value: { taskId: 't' } } });
    expect(tags(StreamResponse.encode(status).finish())).toEqual([[3, LEN]]);
    expect(tags(StreamResponse.encode(artifact).finish())).toEqual([[4, LEN]]);
  });

  it('other spot checks: ListTasksRequest, SendMessageConfiguration, TaskPushNotificationConfig, TaskArtifactUpdateEvent, SecurityScheme', () => {
    expect(
      tags(ListTasksRequest.encode(ListTasksRequest.fromPartial({ statusTimestampAfter: '2026-01-01T00:00:00Z', includeArtifacts: false })).finish()),
    ).toEqual([
      [7, LEN],
      [8, VARINT],
    ]);
    expect(tags(SendMessageConfiguration.encode(SendMessageConfiguration.fromPartial({ historyLength: 0, returnImmediately: true })).finish())).toEqual([
      [3, VARINT],
      [4, VARINT],
    ]);
    expect(
      tags(TaskPushNotificationConfig.encode(TaskPushNotificationConfig.fromPartial({ url: 'u', authentication: { scheme: 'Bearer' } })).finish()),
    ).toEqual([
      [4, LEN],
      [6, LEN],
    ]);
    expect(tags(TaskArtifactUpdateEvent.encode(TaskArtifactUpdateEvent.fromPartial({ append: true, lastChunk: true })).finish())).toEqual([
      [4, VARINT],
      [5, VARINT],
    ]);
    expect(tags(SecurityScheme.encode(SecurityScheme.fromPartial({ scheme: { $case: 'mtlsSecurityScheme', value: { description: 'd' } } })).finish())).toEqual([
      [5, LEN],
    ]);
  });

  it('1.1 draft: generation is Task 7, TaskStatusUpdateEvent 5, TaskArtifactUpdateEvent 7; absent unless set', () => {
    expect(tags(Task.encode(Task.fromPartial({ generation: '3' })).finish())).toEqual([[7, VARINT]]);
    expect(tags(TaskStatusUpdateEvent.encode(TaskStatusUpdateEvent.fromPartial({ generation: '3' })).finish())).toEqual([[5, VARINT]]);
    expect(tags(TaskArtifactUpdateEvent.encode(TaskArtifactUpdateEvent.fromPartial({ generation: '3' })).finish())).toEqual([[7, VARINT]]);
    expect(Task.encode(Task.fromPartial({ id: 't' })).finish()).toEqual(Task.encode(Task.fromPartial({ id: 't', generation: undefined })).finish());
    expect(tags(SendMessageConfiguration.encode(SendMessageConfiguration.fromPartial({ ifGenerationMatch: '2' })).finish())).toEqual([[5, VARINT]]);
    expect(tags(GetTaskRequest.encode(GetTaskRequest.fromPartial({ currentGeneration: '2' })).finish())).toEqual([[4, VARINT]]);
  });
});

/**
 * The whole field-number table of the spec (§5), typed in independently of proto/, compared
 * with the schema generated from proto/. Catches a renumbered or renamed field anywhere.
 */
const SPEC_FIELDS: Record<string, string> = {
  Task: 'id=1 context_id=2 status=3 artifacts=4 history=5 metadata=6',
  TaskStatus: 'state=1 message=2 timestamp=3',
  Part: 'text=1 raw=2 url=3 data=4 metadata=5 filename=6 media_type=7',
  Message: 'message_id=1 context_id=2 task_id=3 role=4 parts=5 metadata=6 extensions=7 reference_task_ids=8',
  Artifact: 'artifact_id=1 name=2 description=3 parts=4 metadata=5 extensions=6',
  TaskStatusUpdateEvent: 'task_id=1 context_id=2 status=3 metadata=4',
  TaskArtifactUpdateEvent: 'task_id=1 context_id=2 artifact=3 append=4 last_chunk=5 metadata=6',
  SendMessageRequest: 'tenant=1 message=2 configuration=3 metadata=4',
  SendMessageConfiguration: 'accepted_output_modes=1 task_push_notification_config=2 history_length=3 return_immediately=4',
  SendMessageResponse: 'task=1 message=2',
  StreamResponse: 'task=1 message=2 status_update=3 artifact_update=4',
  GetTaskRequest: 'tenant=1 id=2 history_length=3',
  ListTasksRequest: 'tenant=1 context_id=2 status=3 page_size=4 page_token=5 history_length=6 status_timestamp_after=7 include_artifacts=8',
  ListTasksResponse: 'tasks=1 next_page_token=2 page_size=3 total_size=4',
  CancelTaskRequest: 'tenant=1 id=2 metadata=3',
  SubscribeToTaskRequest: 'tenant=1 id=2',
  GetTaskPushNotificationConfigRequest: 'tenant=1 task_id=2 id=3',
  DeleteTaskPushNotificationConfigRequest: 'tenant=1 task_id=2 id=3',
  ListTaskPushNotificationConfigsRequest: 'task_id=1 page_size=2 page_token=3 tenant=4',
  ListTaskPushNotificationConfigsResponse: 'configs=1 next_page_token=2',
  GetExtendedAgentCardRequest: 'tenant=1',
  TaskPushNotificationConfig: 'tenant=1 id=2 task_id=3 url=4 token=5 authentication=6',
  AuthenticationInfo: 'scheme=1 credentials=2',
  AgentCard:
    'name=1 description=2 supported_interfaces=3 provider=4 version=5 documentation_url=6 capabilities=7 security_schemes=8 ' +
    'security_requirements=9 default_input_modes=10 default_output_modes=11 skills=12 signatures=13 icon_url=14',
  AgentInterface: 'url=1 protocol_binding=2 tenant=3 protocol_version=4',
  AgentProvider: 'url=1 organization=2',
  AgentCapabilities: 'streaming=1 push_notifications=2 extensions=3 extended_agent_card=4',
  AgentExtension: 'uri=1 description=2 required=3 params=4',
  AgentSkill: 'id=1 name=2 description=3 tags=4 examples=5 input_modes=6 output_modes=7 security_requirements=8',
  AgentCardSignature: 'protected=1 signature=2 header=3',
  StringList: 'list=1',
  SecurityRequirement: 'schemes=1',
  SecurityScheme: 'api_key_security_scheme=1 http_auth_security_scheme=2 oauth2_security_scheme=3 open_id_connect_security_scheme=4 mtls_security_scheme=5',
  APIKeySecurityScheme: 'description=1 location=2 name=3',
  HTTPAuthSecurityScheme: 'description=1 scheme=2 bearer_format=3',
  OAuth2SecurityScheme: 'description=1 flows=2 oauth2_metadata_url=3',
  OpenIdConnectSecurityScheme: 'description=1 open_id_connect_url=2',
  MutualTlsSecurityScheme: 'description=1',
  OAuthFlows: 'authorization_code=1 client_credentials=2 implicit=3 password=4 device_code=5',
  AuthorizationCodeOAuthFlow: 'authorization_url=1 token_url=2 refresh_url=3 scopes=4 pkce_required=5',
  ClientCredentialsOAuthFlow: 'token_url=1 refresh_url=2 scopes=3',
  ImplicitOAuthFlow: 'authorization_url=1 refresh_url=2 scopes=3',
  PasswordOAuthFlow: 'token_url=1 refresh_url=2 scopes=3',
  DeviceCodeOAuthFlow: 'device_authorization_url=1 token_url=2 refresh_url=3 scopes=4',
};

/**
 * The draft A2A 1.1 additions (spec repository branch `dev-1.1`, commit 28491879, pull
 * request 1810), typed in from that commit's proto: field name=number, appended to the 1.0
 * messages. Upstream declares the three `generation` fields without `optional`; ours carry it
 * (same wire form), see the comment at the top of proto/lf/a2a/v1/a2a.proto.
 */
const V11_FIELDS: Record<string, string> = {
  Task: 'generation=7',
  TaskStatusUpdateEvent: 'generation=5',
  TaskArtifactUpdateEvent: 'generation=7',
  SendMessageConfiguration: 'if_generation_match=5',
  GetTaskRequest: 'current_generation=4',
};
const V11_OPTIONALS = [
  'Task.generation',
  'TaskStatusUpdateEvent.generation',
  'TaskArtifactUpdateEvent.generation',
  'SendMessageConfiguration.if_generation_match',
  'GetTaskRequest.current_generation',
];

/** The experimental session protocol (proto/lf/a2a/v1/session.proto): not spec, pinned apart. */
const SESSION_FIELDS: Record<string, string> = {
  SessionRequest: 'correlation_id=1 send=2 cancel=3 subscribe=4 unsubscribe=5 get=6 list=7',
  SessionSend: 'request=1 streaming=2',
  SessionSubscribe: 'request=1 resume_after_seq=2',
  SessionUnsubscribe: '',
  SessionResponse: 'correlation_id=1 event=2 result=3 end=4 error=5',
  SessionEvent: 'event=1 seq=2',
  SessionResult: 'send=1 task=2 list=3',
  SessionEnd: 'state=1 last_seq=2',
  SessionError: 'code=1 message=2 reason=3 domain=4 metadata=5 field_violations=6',
  SessionFieldViolation: 'field=1 description=2',
};
const isSession = (name: string) => /^(lf\.a2a\.v1\.)?Session[A-Z]/.test(name);

/** The v1.0 package only (the schema also holds the v0.3 `a2a.v1` types, checked in v03.test.ts). */
const isV1 = (name: string) => name.startsWith('lf.a2a.v1.');
const V1_MESSAGES = Object.entries(PROTO_SCHEMA.messages).filter(([name]) => isV1(name));
const V1_ENUMS = Object.fromEntries(Object.entries(PROTO_SCHEMA.enums).filter(([name]) => isV1(name)));

describe('generated schema matches the spec field table', () => {
  const fieldTable = (session: boolean) =>
    Object.fromEntries(
      V1_MESSAGES.filter(([name]) => isSession(name) === session).map(([name, fields]) => [
        name.replace(/^lf\.a2a\.v1\./, ''),
        fields.map((f) => `${f.name}=${f.no}`).join(' '),
      ]),
    );

  it('has exactly the spec messages, fields and numbers (1.0, then the 1.1 draft additions)', () => {
    const expected = { ...SPEC_FIELDS };
    for (const [name, added] of Object.entries(V11_FIELDS)) expected[name] = `${expected[name]} ${added}`;
    expect(fieldTable(false)).toEqual(expected);
  });

  it('has the standard grpc.health.v1 messages (proto/grpc/health/v1/health.proto)', () => {
    expect(PROTO_SCHEMA.messages['grpc.health.v1.HealthCheckRequest']?.map((f) => `${f.name}=${f.no}`)).toEqual(['service=1']);
    expect(PROTO_SCHEMA.messages['grpc.health.v1.HealthCheckResponse']?.map((f) => `${f.name}=${f.no}`)).toEqual(['status=1']);
    expect(PROTO_SCHEMA.enums['grpc.health.v1.HealthCheckResponse.ServingStatus']).toEqual({ UNKNOWN: 0, SERVING: 1, NOT_SERVING: 2, SERVICE_UNKNOWN: 3 });
  });

  it('keeps the experimental session messages apart, with fixed numbers', () => {
    expect(fieldTable(true)).toEqual(SESSION_FIELDS);
  });

  it('has the oneofs and proto3 optional markers of the spec', () => {
    const oneofs: Record<string, string> = {};
    const optionals: string[] = [];
    for (const [name, fields] of V1_MESSAGES) {
      if (isSession(name)) continue;
      for (const f of fields) {
        if (f.oneof) oneofs[`${name.replace('lf.a2a.v1.', '')}.${f.name}`] = f.oneof;
        if (f.optional) optionals.push(`${name.replace('lf.a2a.v1.', '')}.${f.name}`);
      }
    }
    const expected: Record<string, string> = {};
    const set = (msg: string, oneof: string, members: string) => {
      for (const m of members.split(' ')) expected[`${msg}.${m}`] = oneof;
    };
    set('Part', 'content', 'text raw url data');
    set('SendMessageResponse', 'payload', 'task message');
    set('StreamResponse', 'payload', 'task message status_update artifact_update');
    set(
      'SecurityScheme',
      'scheme',
      'api_key_security_scheme http_auth_security_scheme oauth2_security_scheme open_id_connect_security_scheme mtls_security_scheme',
    );
    set('OAuthFlows', 'flow', 'authorization_code client_credentials implicit password device_code');
    expect(oneofs).toEqual(expected);
    expect(optionals.sort()).toEqual(
      [
        'SendMessageConfiguration.history_length',
        'GetTaskRequest.history_length',
        'ListTasksRequest.page_size',
        'ListTasksRequest.history_length',
        'ListTasksRequest.include_artifacts',
        'AgentCard.documentation_url',
        'AgentCard.icon_url',
        'AgentCapabilities.streaming',
        'AgentCapabilities.push_notifications',
        'AgentCapabilities.extended_agent_card',
        ...V11_OPTIONALS,
      ].sort(),
    );
  });

  it('has the enums of the spec', () => {
    expect(V1_ENUMS).toEqual({
      'lf.a2a.v1.TaskState': {
        TASK_STATE_UNSPECIFIED: 0,
        TASK_STATE_SUBMITTED: 1,
        TASK_STATE_WORKING: 2,
        TASK_STATE_COMPLETED: 3,
        TASK_STATE_FAILED: 4,
        TASK_STATE_CANCELED: 5,
        TASK_STATE_INPUT_REQUIRED: 6,
        TASK_STATE_REJECTED: 7,
        TASK_STATE_AUTH_REQUIRED: 8,
      },
      'lf.a2a.v1.Role': { ROLE_UNSPECIFIED: 0, ROLE_USER: 1, ROLE_AGENT: 2 },
    });
  });
});
