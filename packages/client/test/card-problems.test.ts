/**
 * The card checks shared by `a2a card` and the inspector: wrong types in the card as served,
 * skills without an id or name, interfaces that cannot be used (binding, version, URL).
 */
import { testAgentCard } from '@a2a-polyglot/testing';
import { agentCardProblems, cardJsonProblems, interfaceProblem } from '../src/index.js';

const iface = (url: string, protocolBinding: string, protocolVersion = '1.0') => ({ url, protocolBinding, protocolVersion, tenant: '' });

describe('card problems', () => {
  it('wrong types in the JSON, by field; members of other versions are not problems', () => {
    expect(
      cardJsonProblems({ name: 'a', version: 3, capabilities: { streaming: 'yes' }, url: 'http://x', preferredTransport: 'JSONRPC', supportedInterfaces: [] }),
    ).toEqual([
      { level: 'bad', text: 'version: expected a string, got number', field: 'version' },
      { level: 'bad', text: 'capabilities.streaming: expected a boolean, got string', field: 'capabilities.streaming' },
    ]);
    expect(
      cardJsonProblems({ name: 'v03', url: 'http://x/rpc', preferredTransport: 'JSONRPC', protocolVersion: '0.3.0', capabilities: {}, skills: 'none' }),
    ).toEqual([{ level: 'bad', text: expect.stringMatching(/^skills: expected a JSON array/), field: 'skills' }]);
  });

  it('a field with a wrong type is not also reported missing (the lenient decoder dropped it)', () => {
    const json = { name: 'a', description: 'd', version: '1', defaultInputModes: 'text/plain', skills: {}, defaultOutputModes: [] };
    const card = testAgentCard({ defaultInputModes: [], defaultOutputModes: [], skills: [], supportedInterfaces: [iface('http://h/rpc', 'JSONRPC')] });
    expect(agentCardProblems(card, 'a2a', json).map((p) => p.text)).toEqual([
      'defaultInputModes: expected a JSON array, got string',
      expect.stringMatching(/^skills: expected a JSON array/),
      'The card has no defaultOutputModes.',
    ]);
    // Without the JSON (a decoded card only), the same fields are said to be missing.
    expect(agentCardProblems(card, 'a2a').map((p) => p.field)).toEqual(['skills', 'defaultInputModes', 'defaultOutputModes']);
  });

  it('skills without an id or a name are errors, without a description a warning', () => {
    const skill = { id: '', name: '', description: '', tags: [], examples: [], inputModes: [], outputModes: [], securityRequirements: [] };
    const card = testAgentCard({
      skills: [skill, { ...skill, id: 'x', name: 'X', description: 'does x' }],
      supportedInterfaces: [iface('http://h/rpc', 'JSONRPC')],
    });
    expect(agentCardProblems(card, 'a2a')).toEqual([
      { level: 'bad', text: 'Skill 1 has no id: a request cannot name it.', field: 'skills[0].id' },
      { level: 'bad', text: 'Skill 1 has no name.', field: 'skills[0].name' },
      { level: 'warn', text: 'Skill 1 has no description.', field: 'skills[0].description' },
    ]);
  });

  it('interfaces: unknown binding, unknown version, not a URL, the wrong scheme; gRPC host:port is fine', () => {
    expect(interfaceProblem(iface('http://h/x', 'urn:example:pigeon'), 'a2a')?.text).toBe(
      'The urn:example:pigeon interface http://h/x uses a binding a2a does not know.',
    );
    expect(interfaceProblem(iface('http://h/x', 'JSONRPC', '2.0'), 'a2a')).toEqual({
      level: 'warn',
      text: 'The JSONRPC interface http://h/x speaks A2A 2.0, which a2a does not.',
    });
    expect(interfaceProblem(iface('h/x', 'HTTP+JSON'), 'a2a')?.text).toBe('The HTTP+JSON interface h/x has a URL that is not a URL.');
    expect(interfaceProblem(iface('ftp://h/x', 'JSONRPC'), 'a2a')?.text).toBe('The JSONRPC interface ftp://h/x must use http or https, not ftp.');
    expect(interfaceProblem(iface('agents.example.com:443', 'GRPC'), 'a2a')).toBeUndefined();
    expect(interfaceProblem(iface('ws://h/a2a/ws', 'urn:a2a-polyglot:binding:websocket:v1'), 'a2a')).toBeUndefined();
  });
});
