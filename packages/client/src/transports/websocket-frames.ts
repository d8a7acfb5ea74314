import type { A2AError } from '@a2a-polyglot/core';

/** One JSON-RPC frame of the A2A WebSocket binding, as parsed from the wire. */
export type Frame = Record<string, unknown>;

/** What a running call hears from its socket. */
export interface Listener {
  frame(frame: Frame): void;
  closed(error: A2AError): void;
}

/** Frames of one stream, in order, with the socket's fate at the end. */
export class FrameQueue implements Listener {
  private readonly frames: Frame[] = [];
  private failure: A2AError | undefined;
  private waiter: { resolve: (frame: Frame) => void; reject: (error: A2AError) => void } | undefined;

  frame(frame: Frame): void {
    if (this.waiter) {
      const { resolve } = this.waiter;
      this.waiter = undefined;
      resolve(frame);
    } else this.frames.push(frame);
  }

  closed(error: A2AError): void {
    this.failure ??= error;
    if (this.waiter) {
      const { reject } = this.waiter;
      this.waiter = undefined;
      reject(error);
    }
  }

  next(): Promise<Frame> {
    const frame = this.frames.shift();
    if (frame) return Promise.resolve(frame);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => (this.waiter = { resolve, reject }));
  }
}

/** A JSON-RPC request frame; per-call headers travel as the binding's `serviceParams`. */
export function requestFrame(id: number, method: string, params: unknown, headers: Readonly<Record<string, string>> | undefined): Frame {
  const frame: Frame = { jsonrpc: '2.0', id, method, params: params ?? {} };
  if (headers && Object.keys(headers).length > 0) frame.serviceParams = { ...headers };
  return frame;
}
