import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '@a2a-polyglot/http';

/** Where Prometheus scrapes (its default `metrics_path`). */
export const METRICS_PATH = '/metrics';

/** Produces the metrics exposition (e.g. `A2AMetrics.scrape` of @a2a-polyglot/metrics). */
export type MetricsSource = () => Promise<{ readonly contentType: string; readonly body: string }>;

/**
 * Answers `GET /metrics` with the exposition and returns true, or returns false for any other
 * path. Like the health probes it needs no credentials and no `A2A-Version`: scrapers are
 * plain HTTP clients. The server knows no metrics library; the host hands it the source.
 */
export async function serveMetrics(req: IncomingMessage, res: ServerResponse, path: string, source: MetricsSource): Promise<boolean> {
  if (path !== METRICS_PATH) return false;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    sendJson(res, 405, { status: 'method not allowed' }, 'application/json', { allow: 'GET, HEAD' });
    return true;
  }
  const { contentType, body } = await source();
  res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
