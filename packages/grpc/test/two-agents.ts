/** The two-agent router the routing tests share: agents `root` (the default) and `alpha`, routed by `agentRouter`. */
import { RequestHandler, silentLogger } from '@a2a-polyglot/core';
import { testAgentCard } from '@a2a-polyglot/testing';
import { Metadata } from '@grpc/grpc-js';
import { agentRouter } from '../src/index.js';

const handler = (name: string) =>
  new RequestHandler({
    card: testAgentCard({ name, capabilities: { streaming: false, pushNotifications: false, extendedAgentCard: false, extensions: [] } }),
    executor: { execute: async () => undefined },
    logger: silentLogger,
  });

/** Two agents on one port; the root's id is no routing tenant (its tenants stay its own). */
export function twoAgents() {
  const root = handler('root');
  const alpha = handler('alpha');
  const agents = new Map([
    ['root', root],
    ['alpha', alpha],
  ]);
  const router = agentRouter(root, { byMetadata: (id) => agents.get(id), byTenant: (id) => (id === 'root' ? undefined : agents.get(id)) });
  return { root, alpha, router };
}

/** Call metadata with `a2a-agent: agent` (none when undefined). */
export function agentMetadata(agent?: string): Metadata {
  const m = new Metadata();
  if (agent !== undefined) m.set('a2a-agent', agent);
  return m;
}
