/**
 * The path of a request target without its query, with absolute-form targets
 * (`GET http://host/x HTTP/1.1`) reduced to their path: what routing compares, for plain
 * requests and WebSocket upgrades alike.
 */
export function requestPath(url: string | undefined): string {
  const target = url ?? '/';
  if (target.startsWith('/')) return target.split('?')[0]!;
  try {
    return new URL(target).pathname;
  } catch {
    return target;
  }
}
