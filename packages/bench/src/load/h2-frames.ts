/**
 * HTTP/2 framing constants and builders for the lean gRPC load client (h2-grpc-client.ts):
 * just the frame types, flags and the connection preface it writes.
 */

/** HTTP/2 frame types the client reads or writes. */
export const FRAME = { DATA: 0, HEADERS: 1, RST_STREAM: 3, SETTINGS: 4, PING: 6, GOAWAY: 7, WINDOW_UPDATE: 8, CONTINUATION: 9 } as const;
/** HTTP/2 frame flags the client reads or writes. */
export const FLAG = { END_STREAM: 0x1, ACK: 0x1, END_HEADERS: 0x4, PADDED: 0x8 } as const;
/** The largest flow-control window HTTP/2 allows. */
export const MAX_WINDOW = 2 ** 31 - 1;
/** The flow-control window every stream and connection starts with. */
export const DEFAULT_WINDOW = 65_535;

const PREFACE = Buffer.from('PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 'latin1');

/** The 9-byte header of one HTTP/2 frame. */
export function frameHeader(length: number, type: number, flags: number, streamId: number): Buffer {
  const h = Buffer.allocUnsafe(9);
  h.writeUIntBE(length, 0, 3);
  h[3] = type;
  h[4] = flags;
  h.writeUInt32BE(streamId, 5);
  return h;
}

/**
 * What the client writes first: the preface, SETTINGS (ENABLE_PUSH = 0, INITIAL_WINDOW_SIZE
 * = max) and a WINDOW_UPDATE opening the connection window to the maximum, so the server is
 * never held back by the client's reading.
 */
export function clientPreface(): Buffer {
  const settings = Buffer.alloc(12);
  settings.writeUInt16BE(0x2, 0);
  settings.writeUInt32BE(0, 2);
  settings.writeUInt16BE(0x4, 6);
  settings.writeUInt32BE(MAX_WINDOW, 8);
  const update = Buffer.alloc(4);
  update.writeUInt32BE(MAX_WINDOW - DEFAULT_WINDOW, 0);
  return Buffer.concat([PREFACE, frameHeader(12, FRAME.SETTINGS, 0, 0), settings, frameHeader(4, FRAME.WINDOW_UPDATE, 0, 0), update]);
}

/** One length-prefixed gRPC message as DATA frame bytes (`endStream`: the request half ends with it). */
export function grpcDataFrame(streamId: number, message: Buffer, endStream: boolean): Buffer {
  const dataLength = 5 + message.length;
  const frames = Buffer.allocUnsafe(9 + dataLength);
  frameHeader(dataLength, FRAME.DATA, endStream ? FLAG.END_STREAM : 0, streamId).copy(frames, 0);
  frames[9] = 0;
  frames.writeUInt32BE(message.length, 10);
  message.copy(frames, 14);
  return frames;
}
