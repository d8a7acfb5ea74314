import { checkFile, loadScenarios, parseScript, scenarioAppliesTo, type Binding } from '../src/index.js';

describe('loadScenarios', () => {
  it('loads the bundled scenarios with unique group/name names', () => {
    const names = loadScenarios().map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(expect.arrayContaining(['streaming/chunk-order', 'errors/unknown-method', 'push/config-crud-and-delivery', 'list-tasks/pagination']));
  });

  it('rejects typos with the file and path of the problem', () => {
    const file = (step: unknown) => ({ group: 'g', scenarios: [{ name: 'n', description: 'd', steps: [step] }] });
    expect(() => checkFile(file({ call: 'GetTask', request: {}, expct: {} }), 'x.json')).toThrow('x.json: $.scenarios[0].steps[0]: unknown key expct for a call step');
    expect(() => checkFile(file({ call: 'GetTask', request: {}, expect: { eror: 'X' } }), 'x.json')).toThrow('unknown key eror');
    expect(() => checkFile(file({ probe: 'nope', expect: {} }), 'x.json')).toThrow('must be one of');
    expect(() => checkFile(file({ call: 'SendMessage', send: { script: [{ compete: true }] }, expect: {} }), 'x.json')).toThrow('unknown step kind compete');
  });

  it('limits a scenario to one request encoding only when it says so', () => {
    const step = { call: 'ListTasks', request: {}, expect: {} };
    const scenario = (extra: object) => checkFile({ group: 'g', scenarios: [{ name: 'n', description: 'd', ...extra, steps: [step] }] }, 'x.json')[0]!;
    expect(() => scenario({ requestEncoding: 'xml' })).toThrow('x.json: $.scenarios[0].requestEncoding: must be one of json, protobuf');
    const binding = (requestEncoding?: 'json' | 'protobuf'): Binding => ({ name: 'b', requestEncoding, start: () => Promise.reject(new Error('unused')) });
    expect(scenarioAppliesTo(scenario({}), binding('protobuf'))).toBe(true);
    expect(scenarioAppliesTo(scenario({ requestEncoding: 'json' }), binding())).toBe(true);
    expect(scenarioAppliesTo(scenario({ requestEncoding: 'json' }), binding('protobuf'))).toBe(false);
    expect(scenarioAppliesTo(scenario({ requestEncoding: 'protobuf' }), binding('json'))).toBe(false);
  });
});

describe('parseScript', () => {
  it('accepts every documented step and rejects malformed ones', () => {
    expect(parseScript([{ submit: true }, { working: 'w' }, { artifact: { artifactId: 'a', text: 't', append: true } }, { gate: 'g' }, { complete: true }])).toHaveLength(5);
    expect(() => parseScript({})).toThrow('must be an array');
    expect(() => parseScript([{ working: 'a', complete: 'b' }])).toThrow('exactly one key');
    expect(() => parseScript([{ sleepMs: -1 }])).toThrow('a number >= 0');
    expect(() => parseScript([{ artifact: { txt: 'x' } }])).toThrow('unknown key txt');
  });
});
