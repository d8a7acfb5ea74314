import type { HttpExchangeBody } from '@a2a-polyglot/http';
import type { ArrivingRequest } from './arriving-request.js';
import { accessRefusal, browserAccessCheck } from './browser-access.js';
import { corsHeaders, preflightResult } from './cors.js';
import type { A2AHttpOptions } from './options.js';

/** What {@link requestGate} decided for one request. */
export interface GateOutcome {
  /** Headers of every answer to the request, under the answer's own (the node listener sets them on the response first). */
  readonly headers: Readonly<Record<string, string>>;
  /** The gate answered itself: a refusal (403) or a CORS preflight (204). */
  readonly answer?: HttpExchangeBody;
}

/** What the gate knows of the route a request is for. */
export interface GateRoute {
  /** A card path: GET, HEAD and OPTIONS of it are public reads (any origin). */
  readonly card: boolean;
  /** The JSON-RPC path: a refusal is a JSON-RPC error there. */
  readonly jsonRpc: boolean;
}

const NOSNIFF = { 'x-content-type-options': 'nosniff' } as const;

/**
 * What every request to an agent passes before its route, the same on node:http and fetch
 * runtimes: `X-Content-Type-Options: nosniff`; the browser access check (a refused Host or
 * Origin gets 403 in its binding's terms); with CORS on (the default), the CORS headers and
 * 204 for a preflight. Why one gate: the rules are security rules, and two copies would drift.
 */
export function requestGate(
  options: Pick<A2AHttpOptions, 'cors' | 'allowedHosts' | 'publicBaseUrl' | 'trustProxy' | 'logger'>,
): (req: ArrivingRequest, route: GateRoute) => GateOutcome {
  const cors = options.cors ?? true;
  const checkAccess = browserAccessCheck(options);
  const logger = options.logger;
  // One outcome per allowed origin (none, `*`, or one of the configured ones: a bounded set),
  // so a request that passes costs no headers object of its own.
  const passed = new Map<string | undefined, GateOutcome>();
  const outcomeFor = (allowOrigin: string | undefined): GateOutcome => {
    let outcome = passed.get(allowOrigin);
    if (!outcome) {
      outcome = { headers: cors ? { ...NOSNIFF, ...corsHeaders(allowOrigin) } : NOSNIFF };
      passed.set(allowOrigin, outcome);
    }
    return outcome;
  };
  return (req, route) => {
    const method = req.method;
    const access = checkAccess(req, route.card && (method === 'GET' || method === 'HEAD' || method === 'OPTIONS'));
    if (!access.ok) return { headers: NOSNIFF, answer: accessRefusal(access.reason, { jsonRpc: route.jsonRpc, logger }) };
    const outcome = outcomeFor(access.allowOrigin);
    return cors && method === 'OPTIONS' ? { headers: outcome.headers, answer: preflightResult() } : outcome;
  };
}
