import type { OperationName } from '@a2a-polyglot/core';

/**
 * How one generation of A2A spells a JSON-RPC call; the transport (envelopes, SSE, errors) is
 * the same for both. Requests start, and results end, as v1.0 JSON, so the one v1.0 decoder
 * reads every answer.
 */
export interface JsonRpcDialect {
  /** Which headers the calls carry (`A2A-Version: 1.0`, or none and `X-A2A-Extensions`). */
  readonly wire: 'v1' | 'v03';
  /** The method name and params of an operation, from its v1.0 request JSON. */
  request(operation: OperationName, json: unknown): { readonly method: string; readonly params: unknown };
  /** A response's or stream event's `result` as v1.0 JSON; `what` names the call in errors. */
  result(operation: OperationName, result: unknown, what: string): unknown;
}

/** A2A v1.0 (spec §3.3): PascalCase method names, ProtoJSON params and results as they are. */
export const V1_JSONRPC: JsonRpcDialect = {
  wire: 'v1',
  request: (operation, json) => ({ method: operation, params: json }),
  result: (_operation, result) => result,
};
