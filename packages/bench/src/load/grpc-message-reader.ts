/**
 * Reassembles length-prefixed gRPC messages (1 flag byte, 4 length bytes, body) from the
 * DATA payloads of one call, however the server cut them. Bodies are copied out only when the
 * caller keeps them (checking); otherwise only their arrival is reported, to keep the load
 * client cheap.
 */
export class GrpcMessageReader {
  /** The 5-byte message prefix being collected. */
  private readonly prefix = Buffer.alloc(5);
  private prefixLength = 0;
  /** Body bytes still expected for the current message (-1: reading a prefix). */
  private need = -1;
  private parts: Buffer[] = [];

  constructor(
    private readonly keep: boolean,
    private readonly onMessage: (body: Buffer | undefined) => void,
  ) {}

  /** Reads one DATA payload; reports each message it completes. */
  push(body: Buffer): void {
    let pos = 0;
    while (pos < body.length) {
      if (this.need < 0) {
        const take = Math.min(5 - this.prefixLength, body.length - pos);
        body.copy(this.prefix, this.prefixLength, pos, pos + take);
        this.prefixLength += take;
        pos += take;
        if (this.prefixLength < 5) return;
        this.need = this.prefix.readUInt32BE(1);
        this.prefixLength = 0;
        if (this.need === 0) {
          this.need = -1;
          this.onMessage(this.keep ? Buffer.alloc(0) : undefined);
        }
        continue;
      }
      const take = Math.min(this.need, body.length - pos);
      if (this.keep) this.parts.push(body.subarray(pos, pos + take));
      this.need -= take;
      pos += take;
      if (this.need === 0) {
        this.need = -1;
        const message = this.keep ? Buffer.concat(this.parts) : undefined;
        this.parts = [];
        this.onMessage(message);
      }
    }
  }
}
