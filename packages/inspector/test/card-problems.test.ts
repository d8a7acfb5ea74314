import type { AgentCard } from '@a2a-polyglot/model';
import { testAgentCard } from '@a2a-polyglot/testing';
import { cardProblems, isLocalHostname } from '../web/card-problems.js';

function card(interfaces: Array<{ url: string; protocolBinding: string; protocolVersion?: string }>, extra: Partial<AgentCard> = {}): AgentCard {
  const skills = [{ id: 'echo', name: 'Echo', description: 'echoes', tags: [], examples: ['hi'], inputModes: [], outputModes: [], securityRequirements: [] }];
  return { ...testAgentCard({ skills }), supportedInterfaces: interfaces.map((i) => ({ tenant: '', protocolVersion: '1.0', ...i })), ...extra };
}

describe('cardProblems', () => {
  it('finds nothing wrong with a complete card served from where its URLs point', () => {
    const c = card([{ url: 'http://127.0.0.1:8080/a2a/rpc', protocolBinding: 'JSONRPC' }]);
    expect(cardProblems(c, { pageOrigin: 'http://127.0.0.1:8080', cardUrl: 'http://127.0.0.1:8080/.well-known/agent-card.json' })).toEqual([]);
  });

  it('says plainly when a loopback URL is served to a page on another host, or by a remote agent', () => {
    const c = card([{ url: 'http://localhost:8080/a2a/rpc', protocolBinding: 'JSONRPC' }]);
    const toRemotePage = cardProblems(c, { pageOrigin: 'http://agents.example.com', cardUrl: 'http://agents.example.com/.well-known/agent-card.json' });
    expect(toRemotePage.map((p) => p.level)).toEqual(['bad', 'bad']);
    expect(toRemotePage[0]!.text).toMatch(/points at localhost, which is the browser's own machine, not agents\.example\.com.*publicBaseUrl/);
    expect(toRemotePage[1]!.text).toMatch(/No interface of the card can be used/);
    const fromRemoteAgent = cardProblems(c, { pageOrigin: 'http://127.0.0.1:8080', cardUrl: 'http://10.0.0.7:9000/.well-known/agent-card.json' });
    expect(fromRemoteAgent[0]!.text).toMatch(/not 10\.0\.0\.7/);
  });

  it('flags mixed content, unknown bindings, unknown versions and missing fields; gRPC is no problem of the card', () => {
    const c = card(
      [
        { url: 'ws://agents.example.com/a2a/ws', protocolBinding: 'urn:a2a-polyglot:binding:websocket:v1' },
        { url: 'https://agents.example.com/a2a', protocolBinding: 'HTTP+JSON', protocolVersion: '2.0' },
        { url: 'x', protocolBinding: 'urn:example:carrier-pigeon' },
        { url: 'agents.example.com:443', protocolBinding: 'GRPC' },
        { url: 'https://agents.example.com/a2a/rpc', protocolBinding: 'JSONRPC' },
      ],
      { description: '', skills: [] },
    );
    const texts = cardProblems(c, { pageOrigin: 'https://agents.example.com', cardUrl: 'https://agents.example.com/.well-known/agent-card.json' }).map(
      (p) => p.text,
    );
    expect(texts).toEqual([
      'The card has no description.',
      'The card lists no skills: a user cannot tell what the agent does.',
      expect.stringMatching(/ws:\/\/agents\.example\.com\/a2a\/ws is not encrypted.*mixed content/),
      expect.stringMatching(/speaks A2A 2\.0, which this page does not/),
      expect.stringMatching(/carrier-pigeon interface x uses a binding this page does not know/),
    ]);
  });

  it('knows the loopback names', () => {
    for (const host of ['localhost', 'api.localhost', '127.0.0.1', '127.1.2.3', '[::1]', '0.0.0.0']) expect(isLocalHostname(host)).toBe(true);
    for (const host of ['example.com', '10.0.0.1', '128.0.0.1', 'localhost.example.com']) expect(isLocalHostname(host)).toBe(false);
  });
});
