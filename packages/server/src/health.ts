import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ReadinessReport } from '@a2a-polyglot/core';
import { sendJson } from '@a2a-polyglot/http';

/** Liveness path: the process answers HTTP (Kubernetes `livenessProbe`). */
export const LIVENESS_PATH = '/healthz';
/** Readiness path: the service can do work now (Kubernetes `readinessProbe`). */
export const READINESS_PATH = '/readyz';

/** What the health endpoints ask: the readiness of everything this listener serves. */
export type ReadinessSource = () => Promise<ReadinessReport>;

/**
 * Answers `/healthz` and `/readyz` (GET or HEAD) and returns true, or returns false for any
 * other path. Liveness is 200 whenever the event loop runs; readiness is 200 or 503 with the
 * report as JSON, so an operator sees which dependency failed. Neither needs credentials or
 * an `A2A-Version`: probes are plain HTTP clients.
 */
export async function serveHealth(req: IncomingMessage, res: ServerResponse, path: string, readiness: ReadinessSource): Promise<boolean> {
  if (path !== LIVENESS_PATH && path !== READINESS_PATH) return false;
  const headers = { 'cache-control': 'no-store' };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendJson(res, 405, { status: 'method not allowed' }, 'application/json', { ...headers, allow: 'GET, HEAD' });
    return true;
  }
  if (path === LIVENESS_PATH) {
    sendJson(res, 200, { status: 'ok' }, 'application/json', headers);
    return true;
  }
  const report = await readiness();
  const status = report.ready ? 'ready' : report.draining ? 'draining' : 'not ready';
  sendJson(res, report.ready ? 200 : 503, { status, checks: report.checks }, 'application/json', headers);
  return true;
}
