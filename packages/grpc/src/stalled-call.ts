import { constants as http2Constants } from 'node:http2';

/**
 * Resets the HTTP/2 stream of a call whose client stopped reading, with ENHANCE_YOUR_CALM
 * (grpc-js clients report RESOURCE_EXHAUSTED). Needed because a status travels in trailers,
 * which HTTP/2 sends only after the unread messages, that is never; the reset drops those
 * buffers. grpc-js has no public way to reach the stream, so this walks its call chain and
 * does nothing when the shape is not the expected one (the status then ends the call if the
 * client ever reads again).
 */
export function resetStalledCall(call: object): void {
  let link: unknown = (call as { call?: unknown }).call;
  for (let depth = 0; depth < 8 && link && typeof link === 'object'; depth++) {
    const stream = (link as { stream?: { close?: (code: number) => void; destroyed?: boolean } }).stream;
    if (stream && typeof stream.close === 'function') {
      if (!stream.destroyed) stream.close(http2Constants.NGHTTP2_ENHANCE_YOUR_CALM);
      return;
    }
    link = (link as { nextCall?: unknown }).nextCall;
  }
}
