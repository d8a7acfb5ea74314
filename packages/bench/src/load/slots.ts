import type { Slot } from './closed-loop.js';
import { H2Pool, GrpcSlot } from './grpc-slot.js';
import { HttpSlot } from './http-slot.js';
import type { RequestSpec } from './job.js';
import { SessionMux, SessionSlot } from './session-client.js';
import type { ObserveFirst } from './slot-support.js';
import { WsSlot } from './ws-slot.js';

export type { ObserveFirst } from './slot-support.js';
export { H2Pool } from './grpc-slot.js';
export { classifyA2aFrame } from './ws-slot.js';

/**
 * Builds `count` slots for a request; the first one reports its first operation to `observe`.
 * gRPC slots share one HTTP/2 connection; session slots share one Session call on one.
 */
export function createSlots(spec: RequestSpec, count: number, observe?: ObserveFirst): { slots: Slot[]; close: () => void } {
  const slots: Slot[] = [];
  const pool = spec.protocol === 'grpc' ? new H2Pool(spec.host, spec.port) : undefined;
  const mux = spec.protocol === 'grpc-session' ? new SessionMux(spec) : undefined;
  for (let i = 0; i < count; i++) {
    const o = i === 0 ? observe : undefined;
    if (spec.protocol === 'http') slots.push(new HttpSlot(spec, i, o));
    else if (mux) slots.push(new SessionSlot(spec, i, mux, o));
    else if (pool) slots.push(new GrpcSlot(spec, i, pool, o));
    else slots.push(new WsSlot(spec, i, o));
  }
  return {
    slots,
    close: () => {
      for (const s of slots) s.close();
      pool?.close();
      mux?.close();
    },
  };
}
