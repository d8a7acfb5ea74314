/**
 * The path of a request target without its query, with absolute-form targets
 * (`GET http://host/x HTTP/1.1`) reduced to their path: what routing compares, for plain
 * requests and WebSocket upgrades alike.
 */
export function requestPath(url: string | undefined): string {
  const target = url ?? '/';
  if (target.startsWith('/')) {
    const query = target.indexOf('?');
    return query < 0 ? target : target.slice(0, query);
  }
  try {
    return new URL(target).pathname;
  } catch {
    return target;
  }
}

/**
 * {@link requestPath} with one trailing slash dropped (the root `/` stays), so `/a2a/rpc/`
 * routes like `/a2a/rpc`. Why: clients join a card URL and a path with a slash of their own
 * (the public compatibility suite posts JSON-RPC to `{url}/`), and no A2A route ends in an
 * empty segment, so the slash never tells two routes apart. Only one is dropped: `//` is not
 * a path anybody builds by accident.
 */
export function routingPath(url: string | undefined): string {
  const path = requestPath(url);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
