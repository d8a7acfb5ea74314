import { emptyResult, type HttpExchangeBody, jsonResult } from '@a2a-polyglot/http';

/** Where Prometheus scrapes (its default `metrics_path`). */
export const METRICS_PATH = '/metrics';

/** Produces the metrics exposition (e.g. `A2AMetrics.scrape` of @a2a-polyglot/metrics). */
export type MetricsSource = () => Promise<{ readonly contentType: string; readonly body: string }>;

/**
 * The answer to `GET /metrics` (the exposition, `no-store`), or undefined for any other path.
 * Like the health probes it needs no credentials and no `A2A-Version`: scrapers are plain HTTP
 * clients. The server knows no metrics library; the host hands it the source. Runtime-free:
 * the node listener and the fetch handler serve this one answer. A HEAD gets the GET's
 * headers and no body.
 */
export async function metricsAnswer(req: { readonly method: string }, path: string, source: MetricsSource): Promise<HttpExchangeBody | undefined> {
  if (path !== METRICS_PATH) return undefined;
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    return jsonResult(405, { status: 'method not allowed' }, 'application/json', { allow: 'GET, HEAD' });
  }
  const { contentType, body } = await source();
  const headers = { 'content-type': contentType, 'content-length': String(new TextEncoder().encode(body).byteLength), 'cache-control': 'no-store' };
  if (req.method === 'HEAD' || body === '') return emptyResult(200, headers);
  return { kind: 'body', status: 200, headers, body, contentType };
}
