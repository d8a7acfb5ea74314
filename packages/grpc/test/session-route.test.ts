import { A2AErrorCode } from '@a2a-polyglot/core';
import type { SessionOperation } from '../src/session/dispatch.js';
import { sessionRoute } from '../src/session/session-route.js';
import { agentMetadata as md, twoAgents } from './two-agents.js';

describe('sessionRoute: a session routes like the standard service', () => {
  const { root, alpha, router } = twoAgents();
  /** One operation of each kind, every request naming `tenant`. */
  const operations = (tenant: string): SessionOperation[] => [
    { $case: 'send', value: { streaming: false, request: { tenant, message: undefined, configuration: undefined, metadata: undefined } } },
    { $case: 'subscribe', value: { request: { tenant, id: 't' }, resumeAfterSeq: undefined } },
    { $case: 'get', value: { tenant, id: 't', historyLength: undefined } },
    { $case: 'cancel', value: { tenant, id: 't', metadata: undefined } },
    {
      $case: 'list',
      value: {
        tenant,
        contextId: '',
        status: 0,
        pageSize: undefined,
        pageToken: '',
        historyLength: undefined,
        statusTimestampAfter: undefined,
        includeArtifacts: undefined,
      },
    },
  ];

  it("routes every operation of a session opened with a2a-agent metadata to that agent, leaving the requests' tenants to it", () => {
    const route = sessionRoute(root, router, md('alpha'));
    for (const operation of [...operations('acme'), ...operations('root'), ...operations('')]) expect(route(operation)).toEqual({ handler: alpha });
  });

  it("routes each operation of a session without metadata by its request's tenant, consumed, else to the root", () => {
    const route = sessionRoute(root, router, md());
    for (const operation of operations('alpha')) expect(route(operation)).toEqual({ handler: alpha, tenant: '' });
    for (const operation of [...operations('acme'), ...operations('')]) expect(route(operation)).toEqual({ handler: root });
    expect(route({ $case: 'send', value: { streaming: true, request: undefined } })).toEqual({ handler: root });
  });

  it('refuses a session whose metadata names no agent served here', () => {
    expect(() => sessionRoute(root, router, md('nobody'))).toThrow(expect.objectContaining({ code: A2AErrorCode.InvalidParams }));
  });

  it('serves every operation from the one handler without a router, whatever the metadata', () => {
    const route = sessionRoute(root, undefined, md('alpha'));
    for (const operation of operations('alpha')) expect(route(operation)).toEqual({ handler: root });
  });
});
