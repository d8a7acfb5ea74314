import { A2AErrorCode, rateLimited, type ServedHandler } from '@a2a-polyglot/core';
import { Metadata } from '@grpc/grpc-js';
import { agentRouter } from '../src/agent-router.js';
import { callAdmission } from '../src/call-admission.js';
import type { RpcRoute } from '../src/grpc-dialect.js';
import { EncodedRequest, safeDeserializer } from '../src/safe-decode.js';

/**
 * Which agent's address point a gRPC call spends, and when: the agent that serves it, before
 * decoding when metadata names it (or only one agent is served), after decoding when the
 * request's tenant routes it; an unroutable or undecodable call spends the default agent's.
 */

/** A served handler that records its charges and has `budget` points (undefined: no limiter). */
function agent(budget: number | undefined) {
  const state = { charges: 0, budget };
  const handler = {
    chargeArrival: (_binding: string, address: string | undefined) => {
      if (state.budget === undefined || address === undefined) return undefined;
      state.charges++;
      return state.budget-- > 0 ? Promise.resolve() : Promise.reject(rateLimited('address', 1000));
    },
  } as unknown as ServedHandler;
  return { handler, state };
}

const route = { toCore: (request: unknown) => request } as RpcRoute;

/** A call whose request decodes to `{ tenant }` (or fails to decode), counting the decodes. */
function call(options: { agent?: string; tenant?: string; garbage?: boolean }) {
  const decodes = { count: 0 };
  const metadata = new Metadata();
  if (options.agent !== undefined) metadata.set('a2a-agent', options.agent);
  const decode = safeDeserializer((bytes: Buffer) => {
    decodes.count++;
    if (options.garbage) throw new Error('not protobuf');
    return { tenant: bytes.toString() };
  }, 'GetTask');
  const request = new EncodedRequest(Buffer.from(options.tenant ?? ''), decode);
  return { call: { getPeer: () => '127.0.0.1:5000', metadata, request }, decodes };
}

const errorOf = async (run: () => unknown): Promise<any> => {
  try {
    await run();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('callAdmission: the address point of the agent that serves the call', () => {
  const setup = (budgets: { root?: number; b?: number }) => {
    const root = agent(budgets.root);
    const b = agent(budgets.b);
    const router = agentRouter(root.handler, {
      byMetadata: (id) => ({ root: root.handler, b: b.handler })[id],
      byTenant: (id) => (id === 'b' ? b.handler : undefined),
    });
    return { root, b, admit: callAdmission(root.handler, router, route) };
  };

  it('charges the agent named in metadata before decoding; over its budget, decodes nothing', async () => {
    const { root, b, admit } = setup({ root: 10, b: 1 });
    const first = call({ agent: 'b', tenant: 'acme' });
    expect(await admit(first.call)).toEqual({ handler: b.handler, coreRequest: { tenant: 'acme' }, addressCharged: true });
    const second = call({ agent: 'b' });
    expect(await errorOf(() => admit(second.call))).toMatchObject({ code: A2AErrorCode.RateLimited });
    expect(second.decodes.count).toBe(0);
    expect([root.state.charges, b.state.charges]).toEqual([0, 2]);
  });

  it('charges the agent a tenant routes to once decoded, and the default agent for every other tenant', async () => {
    const { root, b, admit } = setup({ root: 10, b: 1 });
    expect(await admit(call({ tenant: 'b' }).call)).toEqual({ handler: b.handler, tenant: '', coreRequest: { tenant: 'b' }, addressCharged: true });
    expect(await errorOf(() => admit(call({ tenant: 'b' }).call))).toMatchObject({ code: A2AErrorCode.RateLimited });
    expect(await admit(call({ tenant: 'acme' }).call)).toEqual({ handler: root.handler, coreRequest: { tenant: 'acme' }, addressCharged: true });
    expect([root.state.charges, b.state.charges]).toEqual([1, 2]);
  });

  it("spends the default agent's point on a call naming an unknown agent, or that does not decode", async () => {
    const { root, b, admit } = setup({ root: 2, b: 10 });
    expect(await errorOf(() => admit(call({ agent: 'nobody' }).call))).toMatchObject({ code: A2AErrorCode.InvalidParams });
    expect(await errorOf(() => admit(call({ garbage: true }).call))).toMatchObject({ code: A2AErrorCode.ParseError });
    // Over the default agent's budget, the same calls are refused as rate limited.
    expect(await errorOf(() => admit(call({ agent: 'nobody' }).call))).toMatchObject({ code: A2AErrorCode.RateLimited });
    expect([root.state.charges, b.state.charges]).toEqual([3, 0]);
  });

  it('without a router charges the one agent before decoding; without a limiter answers synchronously', async () => {
    const only = agent(0);
    const refused = call({ tenant: 'b' });
    expect(await errorOf(() => callAdmission(only.handler, undefined, route)(refused.call))).toMatchObject({ code: A2AErrorCode.RateLimited });
    expect(refused.decodes.count).toBe(0);
    const { b, admit } = setup({});
    expect(admit(call({ agent: 'b' }).call)).toEqual({ handler: b.handler, coreRequest: { tenant: '' }, addressCharged: false });
    expect(admit(call({ tenant: 'b' }).call)).toEqual({ handler: b.handler, tenant: '', coreRequest: { tenant: 'b' }, addressCharged: false });
  });
});
