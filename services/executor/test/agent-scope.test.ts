/**
 * The partition of each mounted agent in the shared stores: the default agent keeps its
 * tenants as they are, another agent's are prefixed, and no tenant of one agent names a
 * partition of another (the mapping is injective and each agent reads back only its own).
 */
import { inTenantPartition } from '@a2a-polyglot/core';
import { AgentScope } from '../src/agent-scope.js';

const TENANTS = ['', 't', 'a/b', '@', '@b', '@b/', '@b/t', '@@b/t', 'b', 'b/t', '%40b', '\u001f'];
const SCOPES = [new AgentScope(undefined), new AgentScope('b'), new AgentScope('b2'), new AgentScope('a')];

describe('AgentScope', () => {
  it('leaves the default agent unprefixed and prefixes the others', () => {
    expect(new AgentScope(undefined).inner('t')).toBe('t');
    expect(new AgentScope(undefined).inner('')).toBe('');
    expect(new AgentScope('b').inner('t')).toBe('@b/t');
    expect(new AgentScope('b').inner('')).toBe('@b/');
  });

  it('maps every (agent, tenant) to its own stored tenant, read back by that agent only', () => {
    const seen = new Map<string, string>();
    for (const scope of SCOPES) {
      for (const tenant of TENANTS) {
        const stored = scope.inner(tenant);
        const who = `${scope.agentId ?? '(default)'} ${JSON.stringify(tenant)}`;
        expect(seen.get(stored)).toBeUndefined();
        seen.set(stored, who);
        for (const other of SCOPES) expect(other.outer(stored)).toBe(other === scope ? tenant : undefined);
      }
    }
  });

  it("names each agent's stored tenants as a store partition, and no other agent's", () => {
    for (const scope of SCOPES) {
      for (const tenant of TENANTS) {
        const stored = scope.inner(tenant);
        for (const other of SCOPES)
          expect([other.agentId, stored, inTenantPartition(stored, other.partition())]).toEqual([other.agentId, stored, other === scope]);
      }
    }
  });

  it('keeps event-log keys apart', () => {
    const keys = new Set<string>();
    for (const scope of SCOPES) for (const key of ['t/1', '%40b/1', '/1']) keys.add(scope.logKey(key));
    expect(keys.size).toBe(SCOPES.length * 3);
    expect(new AgentScope(undefined).logKey('t/1')).toBe('t/1');
  });
});
