import { checkReadiness, type ReadinessReport, type ServedHandler } from '@a2a-polyglot/core';
import { type HttpExchangeBody, jsonResult } from '@a2a-polyglot/http';

/** Liveness path: the process answers HTTP (Kubernetes `livenessProbe`). */
export const LIVENESS_PATH = '/healthz';
/** Readiness path: the service can do work now (Kubernetes `readinessProbe`). */
export const READINESS_PATH = '/readyz';

/** What the health endpoints ask: the readiness of everything this listener serves. */
export type ReadinessSource = () => Promise<ReadinessReport>;

/** The readiness an agent's options report: `readiness`, else ready unless the handler drains. */
export function readinessOf(options: { readonly readiness?: ReadinessSource; readonly handler: Pick<ServedHandler, 'draining'> }): ReadinessSource {
  return options.readiness ?? (() => checkReadiness({ draining: () => options.handler.draining }));
}

/**
 * The answer to `/healthz` and `/readyz` (GET or HEAD), or undefined for any other path.
 * Liveness is 200 whenever the event loop runs; readiness is 200 or 503 with the report as
 * JSON, so an operator sees which dependency failed. Neither needs credentials or an
 * `A2A-Version`: probes are plain HTTP clients. Runtime-free: the node listener and the fetch
 * handler serve this one answer.
 */
export async function healthAnswer(req: { readonly method: string }, path: string, readiness: ReadinessSource): Promise<HttpExchangeBody | undefined> {
  if (path !== LIVENESS_PATH && path !== READINESS_PATH) return undefined;
  const headers = { 'cache-control': 'no-store' };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return jsonResult(405, { status: 'method not allowed' }, 'application/json', { ...headers, allow: 'GET, HEAD' });
  }
  if (path === LIVENESS_PATH) return jsonResult(200, { status: 'ok' }, 'application/json', headers);
  const report = await readiness();
  const status = report.ready ? 'ready' : report.draining ? 'draining' : 'not ready';
  return jsonResult(report.ready ? 200 : 503, { status, checks: report.checks }, 'application/json', headers);
}
