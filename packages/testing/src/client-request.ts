/**
 * A fetch `Request` as `fetch` would send it (`accept: *\/*` when the caller named none), for
 * calling a binding's handler in-process: the handler sees the headers a client over a socket
 * sends, so an in-process test and a socket test agree on media-type negotiation.
 */
export function clientRequest(url: string, init: RequestInit = {}): Request {
  const request = new Request(url, init);
  if (!request.headers.has('accept')) request.headers.set('accept', '*/*');
  return request;
}
