import { checkFile, loadScenarios, parseScript } from '../src/index.js';

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
