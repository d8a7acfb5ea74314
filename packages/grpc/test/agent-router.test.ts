import { A2AError, A2AErrorCode, RequestHandler, silentLogger } from '@a2a-polyglot/core';
import { testAgentCard } from '@a2a-polyglot/testing';
import { Metadata } from '@grpc/grpc-js';
import { agentRouter } from '../src/index.js';

const handler = (name: string) =>
  new RequestHandler({
    card: testAgentCard({ name, capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false, extensions: [] } }),
    executor: { execute: async () => undefined },
    logger: silentLogger,
  });

describe('agentRouter: one gRPC port, several agents', () => {
  const root = handler('root');
  const alpha = handler('alpha');
  const agents = new Map([
    ['root', root],
    ['alpha', alpha],
  ]);
  const router = agentRouter(root, { byMetadata: (id) => agents.get(id), byTenant: (id) => (id === 'root' ? undefined : agents.get(id)) });
  /** Where a call goes: by its metadata when that names an agent, else by its request's tenant. */
  const route = (metadata: Metadata, tenant: string) => router.byMetadata(metadata) ?? router.byTenant(tenant);
  const md = (agent?: string) => {
    const m = new Metadata();
    if (agent !== undefined) m.set('a2a-agent', agent);
    return m;
  };

  it('routes by the a2a-agent metadata first, keeping the request tenant for the agent', () => {
    expect(route(md('alpha'), 'acme')).toEqual({ handler: alpha });
    expect(route(md(' root '), 'alpha')).toEqual({ handler: root });
  });

  it('routes by a tenant that names an agent, which then sees the default tenant', () => {
    expect(route(md(), 'alpha')).toEqual({ handler: alpha, tenant: '' });
  });

  it("leaves everything else to the root agent with its own tenant (the root's id is not a routing tenant)", () => {
    expect(route(md(), '')).toEqual({ handler: root });
    expect(route(md(), 'acme')).toEqual({ handler: root });
    expect(route(md(), 'root')).toEqual({ handler: root });
  });

  it('refuses metadata that names no agent, instead of answering with another one', () => {
    for (const id of ['nobody', '']) {
      let error: unknown;
      try {
        route(md(id), '');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(A2AError);
      expect(error).toMatchObject({ code: A2AErrorCode.InvalidParams, fieldViolations: [{ field: 'a2a-agent' }] });
    }
  });
});
