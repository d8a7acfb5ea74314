import type { HttpExchangeBody } from '@a2a-polyglot/http';
import type { ArrivingRequest } from './arriving-request.js';
import { healthAnswer, LIVENESS_PATH, READINESS_PATH, readinessOf } from './health.js';
import { METRICS_PATH, metricsAnswer } from './metrics-endpoint.js';
import type { A2AHttpOptions } from './options.js';

/** The operator routes of a server's root: the health probes, and `/metrics` when given a source. */
export interface ProbeRoutes {
  /** The paths they answer (relative to the server's root). */
  readonly paths: ReadonlySet<string>;
  /** The answer to one of {@link paths}, undefined for any other path. */
  answer(req: Pick<ArrivingRequest, 'method'>, path: string): Promise<HttpExchangeBody | undefined>;
}

/**
 * The probes an agent's options ask for (`readiness`, `metrics`): `/healthz`, `/readyz` and
 * `/metrics`. One table for the node listener (at the root) and the fetch handler (at its
 * mount path, its root), so both answer the same paths the same way.
 */
export function probeRoutes(options: Pick<A2AHttpOptions, 'readiness' | 'handler' | 'metrics'>): ProbeRoutes {
  const readiness = readinessOf(options);
  const metrics = options.metrics;
  return {
    paths: new Set([LIVENESS_PATH, READINESS_PATH, ...(metrics ? [METRICS_PATH] : [])]),
    answer: async (req, path) => (await healthAnswer(req, path, readiness)) ?? (metrics ? metricsAnswer(req, path, metrics) : undefined),
  };
}
