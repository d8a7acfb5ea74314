import { operationByName, streamEventToJson, type Operation } from '@a2a-polyglot/core';
import type { StreamResponse } from '@a2a-polyglot/model';
import { A2AServiceService, V03A2AServiceService } from '@a2a-polyglot/model/grpc';
import { Metadata, type MethodDefinition } from '@grpc/grpc-js';
import { DEFAULT_HEADERS, mergeHeaders, type CallOptions } from '../driver.js';
import { V03_TRANSLATIONS, v03EventToJson, v03Translation } from './v03-translate.js';

/**
 * What the gRPC drivers (standard service, session) share about the wire: the generated
 * methods of the two standard services, request metadata, and raw bytes for the probes.
 */

/** A generated gRPC method with its codecs erased (the driver passes decoded messages through). */
export type AnyMethod = MethodDefinition<unknown, unknown>;

/** The methods of a generated service by RPC name (`/lf.a2a.v1.A2AService/GetTask` → `GetTask`). */
function methodsOf(service: object): ReadonlyMap<string, AnyMethod> {
  return new Map(Object.values(service as Record<string, AnyMethod>).map((m) => [m.path.slice(m.path.lastIndexOf('/') + 1), m]));
}

/**
 * What differs between the two standard gRPC services the driver talks to: the v1.0
 * `lf.a2a.v1.A2AService` (messages are the core's own) and the v0.3 `a2a.v1.A2AService`
 * (messages converted with @a2a-polyglot/v03, no version metadata by default).
 * @internal
 */
export interface GrpcWire {
  readonly binding: string;
  /** The generated method of an operation (undefined: the service has none). */
  method(operation: string): AnyMethod | undefined;
  /** Decoded v1.0 request → the wire request message. */
  toWire(operation: string, request: unknown): unknown;
  /** Wire answer → the v1.0 response message. */
  fromWire(operation: string, response: unknown): unknown;
  /** One wire stream event → v1.0 StreamResponse JSON. */
  eventToJson(event: unknown): unknown;
  /** Service parameters sent unless a step overrides them. */
  readonly defaults: Readonly<Record<string, string>>;
  /** The service's path prefix (`/lf.a2a.v1.A2AService/`), for the unknown-method probe. */
  readonly pathPrefix: string;
}

const V1_METHODS = methodsOf(A2AServiceService);
const V03_METHODS = methodsOf(V03A2AServiceService);

/** The v1.0 service: nothing to convert. @internal */
export const V1_GRPC_WIRE: GrpcWire = {
  binding: 'grpc',
  method: (operation) => V1_METHODS.get(operation),
  toWire: (_operation, request) => request,
  fromWire: (_operation, response) => response,
  eventToJson: (event) => streamEventToJson(event as StreamResponse),
  defaults: DEFAULT_HEADERS,
  pathPrefix: '/lf.a2a.v1.A2AService/',
};

/** The v0.3 service `a2a.v1.A2AService`, as v0.3 clients call it (no `a2a-version`). @internal */
export const V03_GRPC_WIRE: GrpcWire = {
  binding: 'grpc-v03',
  method: (operation) => {
    const t = V03_TRANSLATIONS[operation as keyof typeof V03_TRANSLATIONS];
    return t && V03_METHODS.get(t.rpc);
  },
  toWire: (operation, request) => v03Translation(operation).toV03(request),
  fromWire: (operation, response) => v03Translation(operation).toV1(response),
  eventToJson: (event) => v03EventToJson(event as never),
  defaults: {},
  pathPrefix: '/a2a.v1.A2AService/',
};

/** Bytes that are not a protobuf message: field 1 (length-delimited) claims 5 bytes, 1 follows. @internal */
export const MALFORMED_PROTOBUF = Buffer.from([0x0a, 0x05, 0x0a]);

/** The codec of raw calls (probes): bytes in, bytes out; anything else is a driver bug. @internal */
export function rawBytes(value: unknown): Buffer {
  if (!Buffer.isBuffer(value)) throw new TypeError('a raw gRPC call carries bytes only');
  return value;
}

/** What a unary call needs of a method: its path and the codecs of its two messages. @internal */
export type UnaryWireMethod = Pick<AnyMethod, 'path' | 'requestSerialize' | 'responseDeserialize'>;

/** A method that sends and receives raw bytes on `path` (probes). @internal */
export function rawMethod(path: string): UnaryWireMethod {
  return { path, requestSerialize: rawBytes, responseDeserialize: rawBytes };
}

/** The core operation (for its codecs) and the generated gRPC method of an operation name. @internal */
export function lookup(wire: GrpcWire, operation: string, kind: Operation['kind']): { op: Operation; method: AnyMethod } {
  const op = operationByName(operation);
  const method = wire.method(operation);
  if (!method || op.kind !== kind) throw new Error(`the gRPC driver has no ${kind} RPC ${operation}`);
  return { op, method };
}

/**
 * The request metadata of one call: the default service parameters with the step's
 * overrides (`null` removes one), keys lower-cased as gRPC requires.
 * @internal
 */
export function metadataOf(headers: CallOptions['headers'], defaults: Readonly<Record<string, string>> = DEFAULT_HEADERS): Metadata {
  const md = new Metadata();
  for (const [key, value] of Object.entries(mergeHeaders({ ...defaults }, headers))) md.set(key.toLowerCase(), value);
  return md;
}
