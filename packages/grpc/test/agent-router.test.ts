import { A2AError, A2AErrorCode } from '@a2a-polyglot/core';
import type { Metadata } from '@grpc/grpc-js';
import { agentMetadata as md, twoAgents } from './two-agents.js';

describe('agentRouter: one gRPC port, several agents', () => {
  const { root, alpha, router } = twoAgents();
  /** Where a call goes: by its metadata when that names an agent, else by its request's tenant. */
  const route = (metadata: Metadata, tenant: string) => router.byMetadata(metadata) ?? router.byTenant(tenant);

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
