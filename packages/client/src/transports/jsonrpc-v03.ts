import { v03MethodFor } from '@a2a-polyglot/v03/json';
import type { JsonRpcDialect } from './jsonrpc-dialect.js';
import { fromV03Answer, notInV03 } from './v03.js';

/**
 * A2A v0.3 over JSON-RPC (spec §12.1–12.2), for v0.3 servers: slash method names
 * (`message/send`, `tasks/resubscribe`), `kind`-tagged objects, results as bare Task / Message /
 * events, translated both ways by the `@a2a-polyglot/v03/json` codec. SendMessage always
 * carries `configuration.blocking` explicitly (the codec sets it; servers disagree on its
 * default, spec §0 item 19). v0.3 errors share the v1.0 codes, so they read back unchanged.
 */
export const V03_JSONRPC: JsonRpcDialect = {
  wire: 'v03',
  request(operation, json) {
    const method = v03MethodFor(operation);
    if (!method) throw notInV03(operation);
    return { method: method.name, params: method.paramsToV03(json) };
  },
  result(operation, result, what) {
    const method = v03MethodFor(operation);
    if (!method) throw notInV03(operation);
    return fromV03Answer(what, () => method.resultFromV03(result));
  },
};
