import { checkFile, loadScenarios, parseScript, scenarioAppliesTo, scenarioSkipReason, type Binding } from '../src/index.js';

describe('loadScenarios', () => {
  it('loads the bundled scenarios with unique group/name names', () => {
    const names = loadScenarios().map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['streaming/chunk-order', 'errors/unknown-method', 'push/config-crud-and-delivery', 'list-tasks/pagination']));
  });

  it('rejects typos with the file and path of the problem', () => {
    const file = (step: unknown) => ({ group: 'g', scenarios: [{ name: 'n', description: 'd', steps: [step] }] });
    expect(() => checkFile(file({ call: 'GetTask', request: {}, expct: {} }), 'x.json')).toThrow(
      'x.json: $.scenarios[0].steps[0]: unknown key expct for a call step',
    );
    expect(() => checkFile(file({ call: 'GetTask', request: {}, expect: { eror: 'X' } }), 'x.json')).toThrow('unknown key eror');
    expect(() => checkFile(file({ probe: 'nope', expect: {} }), 'x.json')).toThrow('must be one of');
    expect(() => checkFile(file({ call: 'SendMessage', send: { script: [{ compete: true }] }, expect: {} }), 'x.json')).toThrow('unknown step kind compete');
  });

  it('checks an injected fault and messageOmits', () => {
    const scenario = (fault: unknown, expect: object = {}) =>
      checkFile({ group: 'g', scenarios: [{ name: 'n', description: 'd', fault, steps: [{ call: 'GetTask', request: {}, expect }] }] }, 'x.json')[0]!;
    expect(scenario({ streamFailsAfter: 1, detail: 'secret' }, { messageOmits: 'secret' }).fault).toEqual({ streamFailsAfter: 1, detail: 'secret' });
    expect(() => scenario({ streamFailsAfter: 1 })).toThrow('x.json: $.scenarios[0].fault: must be {"streamFailsAfter": <events>, "detail": <text>}');
    expect(() => scenario({ streamFailsAfter: -1, detail: 'd' })).toThrow('fault.streamFailsAfter: must be a count of events');
    expect(() => scenario({ streamFailsAfter: 1, detail: 'd' }, { messageOmits: '' })).toThrow('expect.messageOmits: must be a non-empty string');
  });

  it('limits a scenario to one request encoding only when it says so', () => {
    const step = { call: 'GetTask', request: {}, expect: {} };
    const scenario = (extra: object) => checkFile({ group: 'g', scenarios: [{ name: 'n', description: 'd', ...extra, steps: [step] }] }, 'x.json')[0]!;
    expect(() => scenario({ requestEncoding: 'xml' })).toThrow('x.json: $.scenarios[0].requestEncoding: must be one of json, protobuf');
    const binding = (requestEncoding?: 'json' | 'protobuf'): Binding => ({ name: 'b', requestEncoding, start: () => Promise.reject(new Error('unused')) });
    expect(scenarioAppliesTo(scenario({}), binding('protobuf'))).toBe(true);
    expect(scenarioAppliesTo(scenario({ requestEncoding: 'json' }), binding())).toBe(true);
    expect(scenarioAppliesTo(scenario({ requestEncoding: 'json' }), binding('protobuf'))).toBe(false);
    expect(scenarioAppliesTo(scenario({ requestEncoding: 'protobuf' }), binding('json'))).toBe(false);
  });
});

describe('protocolVersion of a scenario', () => {
  const scenario = (extra: object, call = 'GetTask') =>
    checkFile({ group: 'g', scenarios: [{ name: 'n', description: 'd', ...extra, steps: [{ call, request: {}, expect: {} }] }] }, 'x.json')[0]!;
  const binding = (protocolVersion?: '1.0' | '0.3'): Binding => ({ name: 'b', protocolVersion, start: () => Promise.reject(new Error('unused')) });

  it('limits a scenario to one A2A generation only when it says so, and says why it is skipped', () => {
    expect(scenarioSkipReason(scenario({}), binding('0.3'))).toBeUndefined();
    expect(scenarioSkipReason(scenario({ protocolVersion: '1.0' }), binding())).toBeUndefined();
    expect(scenarioSkipReason(scenario({ protocolVersion: '1.0' }), binding('0.3'))).toBe('needs A2A 1.0');
    expect(scenarioSkipReason(scenario({ requestEncoding: 'protobuf' }), binding())).toBe('needs protobuf requests');
    expect(() => scenario({ protocolVersion: '2.0' })).toThrow('x.json: $.scenarios[0].protocolVersion: must be one of 1.0, 0.3, 1.1');
  });

  it('runs a 1.1 (draft) scenario on the bindings of the 1.0 wire only; it may call ListTasks', () => {
    expect(scenarioSkipReason(scenario({ protocolVersion: '1.1' }), binding())).toBeUndefined();
    expect(scenarioSkipReason(scenario({ protocolVersion: '1.1' }), binding('1.0'))).toBeUndefined();
    expect(scenarioSkipReason(scenario({ protocolVersion: '1.1' }), binding('0.3'))).toBe('needs A2A 1.1');
    expect(scenario({ protocolVersion: '1.1' }, 'ListTasks').protocolVersion).toBe('1.1');
  });

  it('requires the mark on scenarios that call ListTasks, which A2A v0.3 lacks', () => {
    expect(() => scenario({}, 'ListTasks')).toThrow('x.json: $.scenarios[0].steps[0]: ListTasks has no A2A v0.3 form');
    expect(scenario({ protocolVersion: '1.0' }, 'ListTasks').protocolVersion).toBe('1.0');
  });
});

describe('handler options of a scenario', () => {
  const scenario = (handler: unknown) =>
    checkFile({ group: 'g', scenarios: [{ name: 'n', description: 'd', handler, steps: [{ call: 'GetTask', request: {}, expect: {} }] }] }, 'x.json')[0]!;

  it('accepts backgroundExecution, acceptAnyInputMode, experimental11 and longPollMaxMs and rejects anything else, naming the path', () => {
    expect(scenario({ backgroundExecution: false }).handler).toEqual({ backgroundExecution: false });
    expect(scenario({ acceptAnyInputMode: true }).handler).toEqual({ acceptAnyInputMode: true });
    expect(scenario({ experimental11: true, longPollMaxMs: 50 }).handler).toEqual({ experimental11: true, longPollMaxMs: 50 });
    expect(() => scenario({ backgroundExecution: 'no' })).toThrow('x.json: $.scenarios[0].handler.backgroundExecution: is not a handler option');
    expect(() => scenario({ longPollMaxMs: true })).toThrow('x.json: $.scenarios[0].handler.longPollMaxMs: is not a handler option');
    expect(() => scenario({ cluster: {} })).toThrow(
      '$.scenarios[0].handler.cluster: is not a handler option (known: backgroundExecution (boolean), acceptAnyInputMode (boolean), experimental11 (boolean), longPollMaxMs (number))',
    );
    expect(() => scenario([])).toThrow('$.scenarios[0].handler: must be an object');
  });
});

describe('parseScript', () => {
  it('accepts every documented step and rejects malformed ones', () => {
    expect(
      parseScript([{ submit: true }, { working: 'w' }, { artifact: { artifactId: 'a', text: 't', append: true } }, { gate: 'g' }, { complete: true }]),
    ).toHaveLength(5);
    expect(() => parseScript({})).toThrow('must be an array');
    expect(() => parseScript([{ working: 'a', complete: 'b' }])).toThrow('exactly one key');
    expect(() => parseScript([{ sleepMs: -1 }])).toThrow('a number >= 0');
    expect(() => parseScript([{ artifact: { txt: 'x' } }])).toThrow('unknown key txt');
  });
});
