import type { ServedHandler } from '@a2a-polyglot/core';
import { A2AServiceService, V03A2AServiceService } from '@a2a-polyglot/model/grpc';
import type { Server } from '@grpc/grpc-js';
import { V1_GRPC } from './grpc-dialect.js';
import { V03_GRPC } from './grpc-v03.js';
import { serveService, type A2AServiceBinding, type A2AServiceOptions } from './serve-service.js';

export type { A2AServiceBinding, A2AServiceOptions } from './serve-service.js';

/**
 * Registers the standard `lf.a2a.v1.A2AService` (all 11 RPCs) on a grpc-js server, every
 * RPC served by the same {@link RequestHandler} through the core's OPERATIONS table: the
 * binding only decodes, calls and encodes (see {@link serveService}), in the v1.0 dialect.
 */
export function addA2AService(server: Server, handler: ServedHandler, options: A2AServiceOptions = {}): A2AServiceBinding {
  return serveService(server, A2AServiceService, handler, V1_GRPC, options);
}

/**
 * Registers the A2A v0.3 service `a2a.v1.A2AService` (10 RPCs) on a grpc-js server, so v0.3
 * clients (official SDK 0.3.x) are served by the same core as v1.0 ones: the same serving code
 * as {@link addA2AService}, in the v0.3 dialect (`V03_GRPC`, grpc-v03.ts).
 */
export function addV03A2AService(server: Server, handler: ServedHandler, options: A2AServiceOptions = {}): A2AServiceBinding {
  return serveService(server, V03A2AServiceService, handler, V03_GRPC, options);
}
