import fc from 'fast-check';
import { garbageBody, mutated, mutatedCall, V03_METHODS, validCall, versionHeader, withoutSlowCommand } from './arbitraries.js';
import { headerSafe, type BindingFuzzer } from './binding-fuzzer.js';
import { heavyJsonRpcBody, heavyVersionHeaders } from './heavy-inputs.js';
import { exchangeAndJudge } from './http-exchange.js';

/** A JSON-RPC POST: its body and headers. */
export interface JsonRpcInput {
  readonly body: string | Uint8Array;
  readonly headers: Record<string, string>;
  /** A heavy send (see `BindingFuzzer.heavy`). */
  readonly heavy?: boolean;
}

/** JSON-RPC ids of every shape, valid or not. */
const anyRpcId = fc.oneof(fc.integer(), fc.string({ maxLength: 20 }), fc.constant(null), fc.double(), fc.boolean(), fc.jsonValue({ maxDepth: 2 }));

/** JSON-RPC over HTTP: envelopes with valid-shaped, mutated or random params; random bodies and headers. */
export const jsonRpcFuzzer: BindingFuzzer<JsonRpcInput> = {
  name: 'jsonrpc',
  inputs(known) {
    const rpcId = fc.oneof(fc.integer({ min: 1 }), fc.uuid());
    const envelope = fc
      .record({ jsonrpc: fc.constant('2.0'), id: rpcId, call: validCall(known) })
      .map(({ jsonrpc, id, call }) => ({ jsonrpc, id, method: call.operation, params: call.params }));
    const wrongParams = fc
      .record({ jsonrpc: fc.constant('2.0'), id: rpcId, call: mutatedCall(known) })
      .map(({ jsonrpc, id, call }) => ({ jsonrpc, id, method: call.operation, params: call.params }));
    const v03 = fc.record({ jsonrpc: fc.constant('2.0'), id: fc.nat(), method: fc.constantFrom(...V03_METHODS), params: fc.jsonValue({ maxDepth: 3 }) });
    const body: fc.Arbitrary<string | Uint8Array> = fc.oneof(
      { weight: 2, arbitrary: envelope.map((e) => JSON.stringify(e)) },
      { weight: 4, arbitrary: wrongParams.map((e) => JSON.stringify(e)) },
      { weight: 1, arbitrary: mutated(envelope).map((e) => JSON.stringify(e) ?? 'null') },
      { weight: 1, arbitrary: mutated(v03).map((e) => JSON.stringify(e) ?? 'null') },
      {
        weight: 1,
        arbitrary: fc
          .record({ jsonrpc: fc.string({ maxLength: 5 }), id: anyRpcId, method: fc.string({ maxLength: 30 }), params: fc.jsonValue({ maxDepth: 2 }) })
          .map((e) => JSON.stringify(e)),
      },
      { weight: 1, arbitrary: fc.array(envelope, { maxLength: 4 }).map((batch) => JSON.stringify(batch)) },
      { weight: 2, arbitrary: garbageBody() },
    );
    const headers = fc.record({
      version: versionHeader(),
      // Mostly right, so most inputs get past the envelope checks to the operations.
      contentType: fc.oneof(
        { weight: 8, arbitrary: fc.constant('application/json') },
        { weight: 1, arbitrary: fc.constantFrom('application/json; charset=utf-8', 'text/plain', 'application/grpc', undefined) },
        { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
      ),
    });
    return fc.record({ body, headers }).map(({ body, headers }) => ({
      body: typeof body === 'string' ? withoutSlowCommand(body) : body,
      headers: {
        ...(headers.version !== undefined && { 'a2a-version': headerSafe(headers.version) }),
        ...(headers.contentType !== undefined && { 'content-type': headerSafe(headers.contentType) }),
      },
    }));
  },
  heavy(c) {
    return { body: heavyJsonRpcBody(c, c.salt), headers: { 'content-type': 'application/json', ...heavyVersionHeaders(c) }, heavy: true };
  },
  run(input, target) {
    return exchangeAndJudge('jsonrpc', { method: 'POST', url: target.jsonRpcUrl, headers: input.headers, body: input.body, heavy: input.heavy });
  },
};
