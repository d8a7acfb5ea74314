import { connect, constants } from 'node:http2';

/** What a server answered to {@link rawGrpcCall}: HTTP/2 status, gRPC status, body, trailers. */
export interface RawGrpcAnswer {
  /** The HTTP `:status` (200 for every gRPC answer, errors included). */
  readonly httpStatus: number;
  /** `grpc-status` from the trailers (or from the headers of a trailers-only answer); undefined when none came (reset stream). */
  readonly grpcStatus: number | undefined;
  /** `grpc-message`, percent-decoded. */
  readonly grpcMessage: string;
  /** The `grpc-status-details-bin` trailer, base64-decoded, when present. */
  readonly statusDetails: Buffer | undefined;
  /** Every DATA byte of the answer (length-prefixed messages). */
  readonly body: Buffer;
  /** The HTTP/2 error code when the server reset the stream instead of answering. */
  readonly rstCode: number | undefined;
}

/**
 * One gRPC message frame: the compressed flag, the 4-byte big-endian length, the payload.
 * `declaredLength` lets a test lie about the length.
 */
export function grpcFrame(payload: Buffer, options: { compressed?: boolean; declaredLength?: number } = {}): Buffer {
  const head = Buffer.alloc(5);
  head.writeUInt8(options.compressed ? 1 : 0, 0);
  head.writeUInt32BE(options.declaredLength ?? payload.length, 1);
  return Buffer.concat([head, payload]);
}

/**
 * Sends `body` as the DATA of one gRPC call over a fresh HTTP/2 connection (`url` is
 * `host:port`, plaintext) and collects what comes back. For tests that must put bytes on the
 * wire no gRPC client would send (a compressed flag on garbage, a lying length prefix): a
 * grpc-js client always frames and compresses correctly. Resolves within `timeoutMs` or rejects.
 */
export function rawGrpcCall(url: string, path: string, body: Buffer, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<RawGrpcAnswer> {
  return new Promise((resolve, reject) => {
    const session = connect(`http://${url}`);
    const timer = setTimeout(() => {
      session.destroy();
      reject(new Error(`no answer from ${url}${path} within ${timeoutMs} ms`));
    }, timeoutMs);
    session.on('error', (error) => {
      clearTimeout(timer);
      session.destroy();
      reject(error);
    });
    const stream = session.request({
      [constants.HTTP2_HEADER_METHOD]: 'POST',
      [constants.HTTP2_HEADER_PATH]: path,
      [constants.HTTP2_HEADER_CONTENT_TYPE]: 'application/grpc',
      te: 'trailers',
      ...headers,
    });
    let httpStatus = 0;
    const fields: Record<string, unknown> = {};
    const chunks: Buffer[] = [];
    stream.on('response', (h) => {
      httpStatus = Number(h[constants.HTTP2_HEADER_STATUS]);
      Object.assign(fields, h);
    });
    stream.on('trailers', (t) => Object.assign(fields, t));
    stream.on('data', (chunk: Buffer) => chunks.push(chunk));
    stream.on('error', () => undefined); // a reset is reported through rstCode
    stream.on('close', () => {
      clearTimeout(timer);
      session.close();
      const status = fields['grpc-status'];
      const details = fields['grpc-status-details-bin'];
      resolve({
        httpStatus,
        grpcStatus: status === undefined ? undefined : Number(status),
        grpcMessage: decodeURIComponent(String(fields['grpc-message'] ?? '')),
        statusDetails: typeof details === 'string' ? Buffer.from(details, 'base64') : undefined,
        body: Buffer.concat(chunks),
        rstCode: stream.rstCode === constants.NGHTTP2_NO_ERROR ? undefined : stream.rstCode,
      });
    });
    stream.end(body);
  });
}
