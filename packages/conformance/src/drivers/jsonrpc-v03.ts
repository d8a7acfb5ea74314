import type { OperationName } from '@a2a-polyglot/core';
import { V03_CARD_MEMBERS, v03MethodFor } from '@a2a-polyglot/v03/json';
import { failed, type CallOptions, type CallResult, type Binding } from '../driver.js';
import { readJson, wireViolation } from './http-common.js';
import { startHttpDriver } from './http-driver.js';
import { JsonRpcDriver, type JsonRpcDialect } from './jsonrpc.js';

/**
 * A2A v0.3 on the JSON-RPC endpoint, as a v0.3 client speaks it: slash method names
 * (`message/send`), `kind`-tagged objects, no `A2A-Version`, `X-A2A-Extensions`, and
 * streaming answers that are always SSE. Requests are translated from the scenario's v1.0
 * JSON and answers back to v1.0 JSON with the `@a2a-polyglot/v03` codec, so the outcomes are
 * compared with every other binding's.
 */
export const V03_DIALECT: JsonRpcDialect = {
  binding: 'jsonrpc-v03',
  defaultHeaders: {},
  request(operation, request) {
    const method = v03MethodFor(operation as OperationName);
    return method ? { method: method.name, params: method.paramsToV03(request) } : { method: operation, params: request };
  },
  result(operation, result) {
    const method = v03MethodFor(operation as OperationName);
    return method ? method.resultFromV03(result) : result;
  },
  headers(overrides: CallOptions['headers']) {
    if (!overrides) return overrides;
    return Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k.toLowerCase() === 'a2a-extensions' ? 'X-A2A-Extensions' : k, v]));
  },
  preStreamErrorsAsEvents: true,
  agentCard: fetchV03AgentCard,
};

/**
 * Discovery as a v0.3 client does it: no `A2A-Version`, and the card's top-level `url` with
 * `preferredTransport` JSONRPC must be this endpoint. The v0.3 members are then set aside, so
 * the rest compares with the v1.0 card every other binding reads.
 */
async function fetchV03AgentCard(cardUrl: string, endpoint: string, transport: typeof fetch): Promise<CallResult> {
  try {
    const res = await transport(cardUrl);
    const body = await readJson(res);
    if ('invalid' in body) return wireViolation(body.invalid);
    if (!res.ok) return wireViolation(`agent card: HTTP ${res.status}`);
    const card = { ...(body.json as Record<string, unknown>) };
    if (card.url !== endpoint || card.preferredTransport !== 'JSONRPC') {
      return wireViolation(`the card a v0.3 client reads names ${String(card.url)} (${String(card.preferredTransport)}), not ${endpoint} (JSONRPC)`);
    }
    for (const member of V03_CARD_MEMBERS) delete card[member];
    return { ok: true, result: card };
  } catch (error) {
    return failed(error);
  }
}

/** The JSON-RPC binding spoken by a v0.3 client: the same server as `jsonrpc`, v0.3 method names. */
export const jsonRpcV03Binding: Binding = {
  name: 'jsonrpc-v03',
  protocolVersion: '0.3',
  start: (handler) => startHttpDriver(handler, (baseUrl, cardUrl, close) => new JsonRpcDriver(`${baseUrl}/rpc`, cardUrl, close, V03_DIALECT)),
};
