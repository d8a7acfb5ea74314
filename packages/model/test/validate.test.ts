import {
  type FieldViolation,
  ListTasksRequest,
  Part,
  ProtoJsonError,
  Role,
  SendMessageRequest,
  TaskState,
  parseProtoJson,
  validateProtoJson,
} from '@a2a-polyglot/model';

const fields = (v: FieldViolation[]) => v.map((x) => x.field);

const validRequest = () => ({
  message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }] },
  configuration: { acceptedOutputModes: ['text/plain'], historyLength: 5, returnImmediately: true },
  metadata: { any: ['json', 1, null] },
});

describe('validateProtoJson: accepts valid ProtoJSON', () => {
  it('accepts a canonical camelCase request', () => {
    expect(validateProtoJson('lf.a2a.v1.SendMessageRequest', validRequest())).toEqual([]);
    expect(validateProtoJson('SendMessageRequest', validRequest())).toEqual([]); // short name
  });

  it('accepts snake_case keys and parses them to the same message', () => {
    const snake = {
      message: { message_id: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello', media_type: 'text/plain' }], reference_task_ids: ['t0'] },
      configuration: { accepted_output_modes: ['text/plain'], history_length: 5, return_immediately: true },
    };
    expect(validateProtoJson('SendMessageRequest', snake)).toEqual([]);
    const req = parseProtoJson('SendMessageRequest', SendMessageRequest, snake);
    expect(req.message?.messageId).toBe('m1');
    expect(req.message?.referenceTaskIds).toEqual(['t0']);
    expect(req.message?.parts[0]?.mediaType).toBe('text/plain');
    expect(req.configuration?.acceptedOutputModes).toEqual(['text/plain']);
    expect(req.configuration?.historyLength).toBe(5);
    expect(req.configuration?.returnImmediately).toBe(true);
  });

  it('treats null as the default value', () => {
    const json = { message: { messageId: 'm', role: null, parts: [{ text: 'x', metadata: null }], contextId: null }, configuration: null };
    expect(validateProtoJson('SendMessageRequest', json)).toEqual([]);
    const req = parseProtoJson('SendMessageRequest', SendMessageRequest, json);
    expect(req.configuration).toBeUndefined();
    expect(req.message?.role).toBe(Role.ROLE_UNSPECIFIED);
    expect(req.message?.contextId).toBe('');
  });

  it('accepts enums by name and by number', () => {
    expect(validateProtoJson('ListTasksRequest', { status: 'TASK_STATE_WORKING' })).toEqual([]);
    expect(validateProtoJson('ListTasksRequest', { status: 2 })).toEqual([]);
    expect(parseProtoJson('ListTasksRequest', ListTasksRequest, { status: 2 }).status).toBe(TaskState.TASK_STATE_WORKING);
    expect(parseProtoJson('ListTasksRequest', ListTasksRequest, { status: 'TASK_STATE_WORKING' }).status).toBe(TaskState.TASK_STATE_WORKING);
  });

  it('accepts int32 as number or numeric string, timestamps, optional bools', () => {
    const json = {
      pageSize: '10',
      historyLength: 0,
      statusTimestampAfter: '2026-01-02T03:04:05.123456789+01:00',
      includeArtifacts: true,
      page_token: 'abc',
    };
    expect(validateProtoJson('ListTasksRequest', json)).toEqual([]);
    const req = parseProtoJson('ListTasksRequest', ListTasksRequest, json);
    expect(req.pageSize).toBe(10);
    expect(req.historyLength).toBe(0);
    expect(req.includeArtifacts).toBe(true);
    expect(req.pageToken).toBe('abc');
  });

  it('accepts base64 bytes (standard or URL-safe, padded or not) and normalises them for fromJSON', () => {
    for (const raw of ['AQID', 'AQI=', 'AQI', '-__-', '+//+', '']) {
      expect(validateProtoJson('Part', { raw })).toEqual([]);
    }
    expect(parseProtoJson('Part', Part, { raw: '-__-' }).content).toEqual({ $case: 'raw', value: new Uint8Array([0xfb, 0xff, 0xfe]) });
    expect(parseProtoJson('Part', Part, { raw: 'AQI' }).content).toEqual({ $case: 'raw', value: new Uint8Array([1, 2]) });
  });

  it('accepts any JSON value as Part.data, and maps of messages', () => {
    for (const data of [{ a: 1 }, [1, 2], 'x', 3.5, true, null]) {
      expect(validateProtoJson('Part', { data })).toEqual([]);
    }
    const card = {
      name: 'a',
      securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
      securityRequirements: [{ schemes: { bearer: { list: [] } } }],
      capabilities: { streaming: true, extendedAgentCard: false },
    };
    expect(validateProtoJson('AgentCard', card)).toEqual([]);
  });
});

describe('validateProtoJson: rejects invalid input with field paths', () => {
  it('rejects unknown fields with the full path', () => {
    const json = validRequest() as any;
    json.message.parts[0].kind = 'text';
    json.message.final = true;
    json.extra = 1;
    const v = validateProtoJson('SendMessageRequest', json);
    expect(fields(v).sort()).toEqual(['extra', 'message.final', 'message.parts[0].kind']);
    expect(v.find((x) => x.field === 'message.parts[0].kind')?.description).toMatch(/unknown field.*lf\.a2a\.v1\.Part/);
  });

  it('with ignoreUnknownFields, skips unknown members at any depth but still reports wrong types', () => {
    const json = validRequest() as any;
    json.message.parts[0].kind = 'text';
    json.message.final = true;
    json.extra = 1;
    expect(validateProtoJson('SendMessageRequest', json, { ignoreUnknownFields: true })).toEqual([]);
    json.configuration.historyLength = 'five';
    expect(fields(validateProtoJson('SendMessageRequest', json, { ignoreUnknownFields: true }))).toEqual(['configuration.historyLength']);
    expect(validateProtoJson('google.protobuf.Empty', { later: 1 }, { ignoreUnknownFields: true })).toEqual([]);
  });

  it('parseProtoJson with ignoreUnknownFields drops unknown members (nothing reaches the model) and keeps free-form metadata', () => {
    const json = validRequest() as any;
    json.message.parts[0].kind = 'text';
    json.message.final = true;
    json.extra = 1;
    const req = parseProtoJson('SendMessageRequest', SendMessageRequest, json, { ignoreUnknownFields: true });
    expect(req).toEqual(parseProtoJson('SendMessageRequest', SendMessageRequest, validRequest()));
    expect(JSON.stringify(req)).not.toMatch(/kind|final|extra/);
    expect(req.metadata).toEqual({ any: ['json', 1, null] });
    expect(() => parseProtoJson('SendMessageRequest', SendMessageRequest, json)).toThrow(ProtoJsonError);
  });

  it('rejects wrong types instead of coercing them', () => {
    const v = validateProtoJson('SendMessageRequest', {
      message: { messageId: 42, role: 'user', parts: { text: 'x' }, extensions: 'uri' },
      configuration: { historyLength: 1.5, returnImmediately: 'true', acceptedOutputModes: [null] },
      metadata: [1],
    });
    expect(Object.fromEntries(v.map((x) => [x.field, x.description]))).toEqual({
      'message.messageId': 'expected a string, got number',
      'message.role': expect.stringMatching(/unknown lf\.a2a\.v1\.Role value "user"/),
      'message.parts': 'expected a JSON array, got object',
      'message.extensions': 'expected a JSON array, got string',
      'configuration.historyLength': 'expected an integer (int32), got 1.5',
      'configuration.returnImmediately': 'expected a boolean, got string',
      'configuration.acceptedOutputModes[0]': 'null is not allowed here',
      metadata: 'expected a JSON object (google.protobuf.Struct), got array',
    });
  });

  it('rejects a non-object message', () => {
    expect(validateProtoJson('SendMessageRequest', [])).toEqual([
      { field: '', description: 'expected a JSON object (lf.a2a.v1.SendMessageRequest), got array' },
    ]);
    expect(fields(validateProtoJson('SendMessageRequest', { message: 'hi' }))).toEqual(['message']);
  });

  it('rejects two members of a oneof', () => {
    const v = validateProtoJson('SendMessageRequest', {
      message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'a', url: 'https://x' }] },
    });
    expect(v).toEqual([
      {
        field: 'message.parts[0].url',
        description: 'only one of text, raw, url, data may be set (oneof "content"), but "text" is set too',
      },
    ]);
    expect(fields(validateProtoJson('StreamResponse', { task: { id: 't' }, status_update: { taskId: 't' } }))).toEqual(['status_update']);
    expect(fields(validateProtoJson('OAuthFlows', { implicit: {}, password: {} }))).toEqual(['password']);
    // a null member does not count, except for a google.protobuf.Value member (null is a value there)
    expect(validateProtoJson('Part', { text: 'a', url: null })).toEqual([]);
    expect(fields(validateProtoJson('Part', { text: 'a', data: null }))).toEqual(['data']);
  });

  it('rejects the same field given in both name styles', () => {
    expect(fields(validateProtoJson('Message', { messageId: 'a', message_id: 'b' }))).toEqual(['message_id']);
  });

  it('rejects unknown enum names and numbers', () => {
    expect(fields(validateProtoJson('ListTasksRequest', { status: 'TASK_STATE_DONE' }))).toEqual(['status']);
    expect(fields(validateProtoJson('ListTasksRequest', { status: 99 }))).toEqual(['status']);
    expect(fields(validateProtoJson('ListTasksRequest', { status: 'working' }))).toEqual(['status']); // v0.3 spelling
    expect(fields(validateProtoJson('ListTasksRequest', { status: true }))).toEqual(['status']);
  });

  it('checks int32 range and numeric strings', () => {
    expect(fields(validateProtoJson('ListTasksRequest', { pageSize: 2 ** 31 }))).toEqual(['pageSize']);
    expect(fields(validateProtoJson('ListTasksRequest', { pageSize: 'ten' }))).toEqual(['pageSize']);
    expect(fields(validateProtoJson('ListTasksRequest', { pageSize: '' }))).toEqual(['pageSize']);
    expect(validateProtoJson('ListTasksRequest', { pageSize: -2147483648 })).toEqual([]);
    expect(validateProtoJson('ListTasksRequest', { pageSize: '1e2' })).toEqual([]);
  });

  it('checks timestamps are RFC 3339', () => {
    for (const bad of ['2026-01-02', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '2026-01-02 03:04:05Z', 'yesterday', '2026-01-02T03:04:05']) {
      expect(fields(validateProtoJson('ListTasksRequest', { statusTimestampAfter: bad }))).toEqual(['statusTimestampAfter']);
    }
    expect(fields(validateProtoJson('ListTasksRequest', { statusTimestampAfter: 1700000000 }))).toEqual(['statusTimestampAfter']);
    expect(validateProtoJson('ListTasksRequest', { statusTimestampAfter: '2024-02-29T23:59:59Z' })).toEqual([]);
  });

  it('checks bytes are base64', () => {
    expect(fields(validateProtoJson('Part', { raw: 'not base64!' }))).toEqual(['raw']);
    expect(fields(validateProtoJson('Part', { raw: 'A' }))).toEqual(['raw']);
    expect(fields(validateProtoJson('Part', { raw: [1, 2] }))).toEqual(['raw']);
  });

  it('reports map entries by key', () => {
    const v = validateProtoJson('AgentCard', {
      securitySchemes: { 'my scheme': { bogus: {} }, ok: { mtlsSecurityScheme: {} } },
      securityRequirements: [{ schemes: { oauth: ['scope'] } }],
    });
    expect(fields(v)).toEqual(['securitySchemes["my scheme"].bogus', 'securityRequirements[0].schemes["oauth"]']);
    expect(fields(validateProtoJson('AgentCard', { securitySchemes: [] }))).toEqual(['securitySchemes']);
    expect(fields(validateProtoJson('AuthorizationCodeOAuthFlow', { scopes: { read: 1 } }))).toEqual(['scopes["read"]']);
  });

  it('limits nesting depth instead of overflowing the stack', () => {
    let deep: unknown = 'leaf';
    for (let i = 0; i < 200; i++) deep = { d: deep };
    const v = validateProtoJson('Part', { data: deep });
    expect(v).toHaveLength(1);
    expect(v[0]!.description).toMatch(/maximum depth of 100/);
    expect(validateProtoJson('Part', { data: deep }, { maxDepth: 500 })).toEqual([]);
  });

  it('quotes at most a prefix of a long value or member name, in the description and the path', () => {
    const long = 'z'.repeat(100_000);
    const quoted = `"${'z'.repeat(64)}… (100000 characters)"`;
    const [role] = validateProtoJson('Message', { role: long });
    expect(role).toEqual({ field: 'role', description: `unknown lf.a2a.v1.Role value ${quoted} (expected one of ROLE_UNSPECIFIED, ROLE_USER, ROLE_AGENT)` });
    expect(validateProtoJson('ListTasksRequest', { pageSize: long })[0]!.description).toBe(`expected an integer (int32), got the string ${quoted}`);
    expect(validateProtoJson('ListTasksRequest', { pageSize: '9'.repeat(1000) })[0]!.description).toBe(
      `${'9'.repeat(64)}… (1000 characters) is out of range for int32`,
    );
    expect(validateProtoJson('ListTasksRequest', { statusTimestampAfter: long })[0]!.description).toMatch(/got "z{64}… \(100000 characters\)"$/);
    expect(fields(validateProtoJson('Message', { [long]: 1 }))).toEqual([`${'z'.repeat(64)}… (100000 characters)`]);
    expect(fields(validateProtoJson('AuthorizationCodeOAuthFlow', { scopes: { [long]: 1 } }))).toEqual([`scopes["${'z'.repeat(64)}… (100000 characters)"]`]);
    // A cut never falls inside a surrogate pair; short values are quoted whole.
    expect(validateProtoJson('Message', { role: `${'z'.repeat(63)}😀${long}` })[0]!.description).toMatch(/value "z{63}… \(100065 characters\)"/);
    expect(validateProtoJson('Message', { role: 'ROLE_BOSS' })[0]!.description).toMatch(/value "ROLE_BOSS"/);
  });

  it('caps the number of violations', () => {
    const parts = Array.from({ length: 500 }, () => ({ text: 1 }));
    const v = validateProtoJson('Message', { parts }, { maxViolations: 10 });
    expect(v).toHaveLength(11);
    expect(v[10]).toEqual({ field: '', description: expect.stringMatching(/too many violations/) });
  });

  it('checks google.protobuf.Empty and rejects unknown type names loudly', () => {
    expect(validateProtoJson('google.protobuf.Empty', {})).toEqual([]);
    expect(fields(validateProtoJson('google.protobuf.Empty', { a: 1 }))).toEqual(['a']);
    expect(() => validateProtoJson('NoSuchMessage', {})).toThrow(/Unknown protobuf message type/);
  });
});

describe('parseProtoJson', () => {
  it('throws ProtoJsonError carrying every violation', () => {
    let error: unknown;
    try {
      parseProtoJson('SendMessageRequest', SendMessageRequest, { message: { messageId: 1, parts: [{ txt: 'x' }] } });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ProtoJsonError);
    expect(error).toBeInstanceOf(Error);
    const err = error as ProtoJsonError;
    expect(err.name).toBe('ProtoJsonError');
    expect(err.typeName).toBe('lf.a2a.v1.SendMessageRequest');
    expect(fields(err.violations)).toEqual(['message.messageId', 'message.parts[0].txt']);
    expect(err.message).toBe('Invalid lf.a2a.v1.SendMessageRequest JSON: message.messageId: expected a string, got number (and 1 more)');
  });

  it('does not check REQUIRED fields (that is the core’s job)', () => {
    const req = parseProtoJson('SendMessageRequest', SendMessageRequest, {});
    expect(req.message).toBeUndefined();
  });
});
