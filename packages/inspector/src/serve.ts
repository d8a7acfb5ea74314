import type { IncomingMessage, ServerResponse } from 'node:http';
import { loadInspectorAssets } from './assets.js';

/** Where the executor serves the page. */
export const INSPECTOR_PATH = '/inspector';

/**
 * The page may talk to any agent the user types (fetch, WebSocket), but loads nothing but its
 * own script and style: no CDN, no inline script.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src * ws: wss:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** A route of a node:http listener: answers and returns true, or returns false (not its path). */
export type InspectorRoute = (req: IncomingMessage, res: ServerResponse, path: string) => Promise<boolean>;

/**
 * Serves the inspector under `basePath` (default {@link INSPECTOR_PATH}): the page at
 * `basePath` (the listener's routing path drops one trailing slash), its script and style next to it. GET and HEAD only.
 * The page's files are loaded once (see `loadInspectorAssets`).
 */
export function inspectorRoute(basePath: string = INSPECTOR_PATH): InspectorRoute {
  const files: Record<string, { readonly type: string; readonly pick: (a: { html: string; css: string; js: string }) => string }> = {
    [basePath]: { type: 'text/html; charset=utf-8', pick: (a) => a.html.replaceAll('%BASE%', basePath) },
    [`${basePath}/inspector.js`]: { type: 'text/javascript; charset=utf-8', pick: (a) => a.js },
    [`${basePath}/inspector.css`]: { type: 'text/css; charset=utf-8', pick: (a) => a.css },
  };
  return async (req, res, path) => {
    const file = files[path];
    if (!file) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' }).end('The inspector is read with GET\n');
      return true;
    }
    const body = file.pick(await loadInspectorAssets());
    res.writeHead(200, {
      'content-type': file.type,
      'content-length': Buffer.byteLength(body),
      'cache-control': 'no-cache',
      'x-content-type-options': 'nosniff',
      'content-security-policy': CONTENT_SECURITY_POLICY,
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
}
