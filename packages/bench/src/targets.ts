/**
 * Who serves a target: our stack as `npm start` runs it, the same stack with a silent logger
 * (`bare`: what logging costs shows beside it), the official SDK, or a raw-transport ceiling.
 */
export type Family = 'ours' | 'bare' | 'sdk' | 'ceiling';
/** The wire a target speaks. `http` is the raw node:http ceiling (JSON unary, SSE streams). */
export type Binding = 'jsonrpc' | 'rest' | 'grpc' | 'ws' | 'http';
/** Server processes the harness can start (see servers/server-main.ts). */
export type ServerKind = 'ours' | 'ours-bare' | 'sdk' | 'raw-http' | 'raw-grpc' | 'raw-ws';

/** One thing the benchmark measures: a binding of a server. */
export interface Target {
  readonly id: string;
  readonly label: string;
  readonly family: Family;
  readonly binding: Binding;
  readonly server: ServerKind;
  /** Key of the port in the server's ready report; the target is skipped when absent. */
  readonly port: string;
  /** Ceiling it is compared with (ours and SDK targets). */
  readonly ceiling?: string;
  /** The SDK target it is compared with (ours targets). */
  readonly sdk?: string;
  /** gRPC over the multiplexed `A2ASessionService/Session` call instead of one call per operation. */
  readonly session?: boolean;
  /** Set while the target cannot be measured yet; printed as the skip notice. */
  readonly pending?: string;
}

/**
 * Every target, in the order cells run (each ceiling next to what it bounds). A target is a
 * small entry here plus a request builder in requests.ts; a binding that lands later is added
 * by one entry and, if new, one server port.
 */
export const TARGETS: readonly Target[] = [
  { id: 'raw-http', label: 'raw node:http (SSE for streams)', family: 'ceiling', binding: 'http', server: 'raw-http', port: 'http' },
  { id: 'ours-jsonrpc', label: 'ours JSON-RPC', family: 'ours', binding: 'jsonrpc', server: 'ours', port: 'http', ceiling: 'raw-http', sdk: 'sdk-jsonrpc' },
  { id: 'bare-jsonrpc', label: 'ours JSON-RPC, silent logger', family: 'bare', binding: 'jsonrpc', server: 'ours-bare', port: 'http', ceiling: 'raw-http' },
  { id: 'sdk-jsonrpc', label: 'SDK JSON-RPC', family: 'sdk', binding: 'jsonrpc', server: 'sdk', port: 'http', ceiling: 'raw-http' },
  { id: 'ours-rest', label: 'ours REST', family: 'ours', binding: 'rest', server: 'ours', port: 'http', ceiling: 'raw-http', sdk: 'sdk-rest' },
  { id: 'bare-rest', label: 'ours REST, silent logger', family: 'bare', binding: 'rest', server: 'ours-bare', port: 'http', ceiling: 'raw-http' },
  { id: 'sdk-rest', label: 'SDK REST', family: 'sdk', binding: 'rest', server: 'sdk', port: 'http', ceiling: 'raw-http' },
  { id: 'raw-grpc', label: 'raw grpc-js (identity codecs)', family: 'ceiling', binding: 'grpc', server: 'raw-grpc', port: 'grpc' },
  { id: 'ours-grpc', label: 'ours gRPC', family: 'ours', binding: 'grpc', server: 'ours', port: 'grpc', ceiling: 'raw-grpc', sdk: 'sdk-grpc' },
  { id: 'bare-grpc', label: 'ours gRPC, silent logger', family: 'bare', binding: 'grpc', server: 'ours-bare', port: 'grpc', ceiling: 'raw-grpc' },
  { id: 'sdk-grpc', label: 'SDK gRPC', family: 'sdk', binding: 'grpc', server: 'sdk', port: 'grpc', ceiling: 'raw-grpc' },
  {
    id: 'ours-grpc-session',
    label: 'ours gRPC session',
    family: 'ours',
    binding: 'grpc',
    server: 'ours',
    port: 'grpcSession',
    ceiling: 'raw-grpc',
    session: true,
  },
  { id: 'raw-ws', label: 'raw ws', family: 'ceiling', binding: 'ws', server: 'raw-ws', port: 'ws' },
  {
    id: 'ours-ws',
    label: 'ours WebSocket',
    family: 'ours',
    binding: 'ws',
    server: 'ours',
    port: 'ws',
    ceiling: 'raw-ws',
  },
  { id: 'bare-ws', label: 'ours WebSocket, silent logger', family: 'bare', binding: 'ws', server: 'ours-bare', port: 'ws', ceiling: 'raw-ws' },
];

/** Looks a target up by id. */
export function targetById(id: string): Target | undefined {
  return TARGETS.find((t) => t.id === id);
}

/** The target with this id; throws when there is none (a scenario names a target that does not exist). */
export function requireTarget(id: string): Target {
  const target = targetById(id);
  if (!target) throw new Error(`no bench target ${id}`);
  return target;
}

/** Whether `target` passes the TARGETS filter (ids or substrings; empty = everything). */
export function targetSelected(target: Target, filter: readonly string[]): boolean {
  return filter.length === 0 || filter.some((w) => target.id.includes(w));
}
