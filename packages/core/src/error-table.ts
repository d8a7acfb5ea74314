import { A2AErrorCode } from './error-code.js';

/**
 * gRPC status codes (the subset we emit). Declared here, as plain numbers, so the core needs
 * no gRPC import; values are fixed by the gRPC specification.
 */
export enum GrpcStatus {
  OK = 0,
  CANCELLED = 1,
  UNKNOWN = 2,
  INVALID_ARGUMENT = 3,
  DEADLINE_EXCEEDED = 4,
  NOT_FOUND = 5,
  PERMISSION_DENIED = 7,
  RESOURCE_EXHAUSTED = 8,
  FAILED_PRECONDITION = 9,
  ABORTED = 10,
  UNIMPLEMENTED = 12,
  INTERNAL = 13,
  UNAVAILABLE = 14,
  UNAUTHENTICATED = 16,
}

/** How one error code appears on each binding. */
export interface ErrorWireForms {
  /** JSON-RPC 2.0 `error.code` (JSON-RPC binding and WebSocket frames). */
  readonly jsonRpc: number;
  /** HTTP status (REST binding; also the JSON-RPC binding for auth and size failures). */
  readonly http: number;
  /** gRPC status code. */
  readonly grpc: GrpcStatus;
  /** Default human message when the error carries none (spec's canonical texts). */
  readonly message: string;
  /** True for the error types the A2A spec defines (ErrorInfo domain `a2a-protocol.org`). */
  readonly a2a: boolean;
  /**
   * The A2A v0.3 form, for the v0.3 codecs (spec §12.3): the v0.3 JSON-RPC `error.code` (v0.3
   * has no -32008/-32009, so those read as InvalidRequest) and the v0.3 error class name that
   * v0.3 gRPC clients parse from the front of the status message, and `grpc` the v0.3 gRPC
   * status where it differs from the v1.0 one (the 0.3.14 gRPC client recognises
   * PushNotificationNotSupported only as UNIMPLEMENTED). v0.3 REST answers with the v1.0 HTTP
   * column: an unknown route is 404 in both generations.
   */
  readonly v03: { readonly jsonRpc: number; readonly name: string; readonly grpc?: GrpcStatus };
}

/**
 * THE error mapping: one row per code, one column per binding, following the A2A v1.0.1
 * mapping (spec §3.6). Generic errors outside the spec's table use JSON-RPC codes in the
 * application range as -31000 minus the HTTP status (-31401, -31413, ...), so they never
 * collide with the -32001…-32099 block A2A reserves.
 */
export const ERROR_TABLE: Readonly<Record<A2AErrorCode, ErrorWireForms>> = {
  [A2AErrorCode.TaskNotFound]: {
    jsonRpc: -32001,
    http: 404,
    grpc: GrpcStatus.NOT_FOUND,
    message: 'Task not found',
    a2a: true,
    v03: { jsonRpc: -32001, name: 'TaskNotFoundError' },
  },
  [A2AErrorCode.TaskNotCancelable]: {
    jsonRpc: -32002,
    http: 400,
    grpc: GrpcStatus.FAILED_PRECONDITION,
    message: 'Task cannot be canceled',
    a2a: true,
    v03: { jsonRpc: -32002, name: 'TaskNotCancelableError' },
  },
  [A2AErrorCode.PushNotificationNotSupported]: {
    jsonRpc: -32003,
    http: 400,
    grpc: GrpcStatus.FAILED_PRECONDITION,
    message: 'Push notifications are not supported',
    a2a: true,
    v03: { jsonRpc: -32003, name: 'PushNotificationNotSupportedError', grpc: GrpcStatus.UNIMPLEMENTED },
  },
  [A2AErrorCode.UnsupportedOperation]: {
    jsonRpc: -32004,
    http: 400,
    grpc: GrpcStatus.FAILED_PRECONDITION,
    message: 'This operation is not supported',
    a2a: true,
    v03: { jsonRpc: -32004, name: 'UnsupportedOperationError' },
  },
  [A2AErrorCode.ContentTypeNotSupported]: {
    jsonRpc: -32005,
    http: 400,
    grpc: GrpcStatus.INVALID_ARGUMENT,
    message: 'Incompatible content types',
    a2a: true,
    v03: { jsonRpc: -32005, name: 'ContentTypeNotSupportedError' },
  },
  [A2AErrorCode.InvalidAgentResponse]: {
    jsonRpc: -32006,
    http: 500,
    grpc: GrpcStatus.INTERNAL,
    message: 'Invalid agent response',
    a2a: true,
    v03: { jsonRpc: -32006, name: 'InvalidAgentResponseError' },
  },
  [A2AErrorCode.ExtendedAgentCardNotConfigured]: {
    jsonRpc: -32007,
    http: 400,
    grpc: GrpcStatus.FAILED_PRECONDITION,
    message: 'Extended agent card is not configured',
    a2a: true,
    v03: { jsonRpc: -32007, name: 'AuthenticatedExtendedCardNotConfiguredError' },
  },
  [A2AErrorCode.ExtensionSupportRequired]: {
    jsonRpc: -32008,
    http: 400,
    grpc: GrpcStatus.FAILED_PRECONDITION,
    message: 'A required extension was not activated',
    a2a: true,
    v03: { jsonRpc: -32600, name: 'InvalidRequestError' },
  },
  [A2AErrorCode.VersionNotSupported]: {
    jsonRpc: -32009,
    http: 400,
    grpc: GrpcStatus.FAILED_PRECONDITION,
    message: 'A2A version not supported',
    a2a: true,
    v03: { jsonRpc: -32600, name: 'InvalidRequestError' },
  },
  // A2A 1.1 draft (spec branch dev-1.1, §5.4 of commit 28491879): -32010 / ABORTED / 409.
  // Only 1.1 calls can meet it; v0.3 has no such code, so its form reads as InvalidRequest.
  [A2AErrorCode.TaskGenerationMismatch]: {
    jsonRpc: -32010,
    http: 409,
    grpc: GrpcStatus.ABORTED,
    message: 'Task generation mismatch',
    a2a: true,
    v03: { jsonRpc: -32600, name: 'InvalidRequestError' },
  },
  [A2AErrorCode.ParseError]: {
    jsonRpc: -32700,
    http: 400,
    grpc: GrpcStatus.INVALID_ARGUMENT,
    message: 'Invalid JSON payload',
    a2a: false,
    v03: { jsonRpc: -32700, name: 'JSONParseError' },
  },
  [A2AErrorCode.InvalidRequest]: {
    jsonRpc: -32600,
    http: 400,
    grpc: GrpcStatus.INVALID_ARGUMENT,
    message: 'Request payload validation error',
    a2a: false,
    v03: { jsonRpc: -32600, name: 'InvalidRequestError' },
  },
  [A2AErrorCode.MethodNotFound]: {
    jsonRpc: -32601,
    http: 404,
    grpc: GrpcStatus.UNIMPLEMENTED,
    message: 'Method not found',
    a2a: false,
    v03: { jsonRpc: -32601, name: 'MethodNotFoundError' },
  },
  [A2AErrorCode.InvalidParams]: {
    jsonRpc: -32602,
    http: 400,
    grpc: GrpcStatus.INVALID_ARGUMENT,
    message: 'Invalid parameters',
    a2a: false,
    v03: { jsonRpc: -32602, name: 'InvalidParamsError' },
  },
  [A2AErrorCode.Internal]: {
    jsonRpc: -32603,
    http: 500,
    grpc: GrpcStatus.INTERNAL,
    message: 'Internal error',
    a2a: false,
    v03: { jsonRpc: -32603, name: 'InternalError' },
  },
  [A2AErrorCode.Unauthenticated]: {
    jsonRpc: -31401,
    http: 401,
    grpc: GrpcStatus.UNAUTHENTICATED,
    message: 'Authentication required',
    a2a: false,
    v03: { jsonRpc: -31401, name: 'UnauthenticatedError' },
  },
  [A2AErrorCode.PermissionDenied]: {
    jsonRpc: -31403,
    http: 403,
    grpc: GrpcStatus.PERMISSION_DENIED,
    message: 'Permission denied',
    a2a: false,
    v03: { jsonRpc: -31403, name: 'PermissionDeniedError' },
  },
  [A2AErrorCode.PayloadTooLarge]: {
    jsonRpc: -31413,
    http: 413,
    grpc: GrpcStatus.RESOURCE_EXHAUSTED,
    message: 'Payload too large',
    a2a: false,
    v03: { jsonRpc: -31413, name: 'PayloadTooLargeError' },
  },
  [A2AErrorCode.ResourceExhausted]: {
    jsonRpc: -31429,
    http: 429,
    grpc: GrpcStatus.RESOURCE_EXHAUSTED,
    message: 'Too many requests',
    a2a: false,
    v03: { jsonRpc: -31429, name: 'ResourceExhaustedError' },
  },
  // -31429 is taken by ResourceExhausted (also HTTP 429): the rate limit takes the next code.
  [A2AErrorCode.RateLimited]: {
    jsonRpc: -31430,
    http: 429,
    grpc: GrpcStatus.RESOURCE_EXHAUSTED,
    message: 'Rate limit exceeded',
    a2a: false,
    v03: { jsonRpc: -31430, name: 'RateLimitedError' },
  },
  [A2AErrorCode.Unavailable]: {
    jsonRpc: -31503,
    http: 503,
    grpc: GrpcStatus.UNAVAILABLE,
    message: 'Service unavailable',
    a2a: false,
    v03: { jsonRpc: -31503, name: 'UnavailableError' },
  },
  [A2AErrorCode.DeadlineExceeded]: {
    jsonRpc: -31504,
    http: 504,
    grpc: GrpcStatus.DEADLINE_EXCEEDED,
    message: 'Deadline exceeded',
    a2a: false,
    v03: { jsonRpc: -31504, name: 'DeadlineExceededError' },
  },
};

/** ErrorInfo domain for spec-defined errors. */
export const A2A_ERROR_DOMAIN = 'a2a-protocol.org';
/** ErrorInfo domain for our generic (non-A2A) errors. */
export const POLYGLOT_ERROR_DOMAIN = 'a2a-polyglot';

const byReason = new Map<string, A2AErrorCode>((Object.keys(ERROR_TABLE) as A2AErrorCode[]).map((code) => [code, code]));
const byJsonRpc = new Map<number, A2AErrorCode>((Object.keys(ERROR_TABLE) as A2AErrorCode[]).map((code) => [ERROR_TABLE[code].jsonRpc, code]));

/** Reverse of the reason column; the reason is the most precise discriminator a client gets. */
export function codeFromReason(reason: string | undefined): A2AErrorCode | undefined {
  return reason === undefined ? undefined : byReason.get(reason);
}

/** Reverse of the JSON-RPC column (unique per code). */
export function codeFromJsonRpc(code: number): A2AErrorCode | undefined {
  return byJsonRpc.get(code);
}

/**
 * Best guess from an HTTP status alone, for clients talking to servers that send no
 * ErrorInfo. Several codes share 400, so prefer {@link codeFromReason} when a reason exists.
 */
export function codeFromHttpStatus(status: number): A2AErrorCode {
  switch (status) {
    case 400:
      return A2AErrorCode.InvalidParams;
    case 401:
      return A2AErrorCode.Unauthenticated;
    case 403:
      return A2AErrorCode.PermissionDenied;
    case 404:
      return A2AErrorCode.TaskNotFound;
    case 409:
      return A2AErrorCode.TaskGenerationMismatch;
    case 405:
      return A2AErrorCode.MethodNotFound;
    case 413:
      return A2AErrorCode.PayloadTooLarge;
    case 415:
      return A2AErrorCode.ContentTypeNotSupported;
    case 429:
      return A2AErrorCode.ResourceExhausted;
    case 503:
      return A2AErrorCode.Unavailable;
    case 504:
      return A2AErrorCode.DeadlineExceeded;
    default:
      return A2AErrorCode.Internal;
  }
}

/** Best guess from a gRPC status alone (used when a peer sends no ErrorInfo detail). */
export function codeFromGrpcStatus(status: number): A2AErrorCode {
  switch (status) {
    case GrpcStatus.INVALID_ARGUMENT:
      return A2AErrorCode.InvalidParams;
    case GrpcStatus.DEADLINE_EXCEEDED:
      return A2AErrorCode.DeadlineExceeded;
    case GrpcStatus.NOT_FOUND:
      return A2AErrorCode.TaskNotFound;
    case GrpcStatus.PERMISSION_DENIED:
      return A2AErrorCode.PermissionDenied;
    case GrpcStatus.RESOURCE_EXHAUSTED:
      return A2AErrorCode.ResourceExhausted;
    case GrpcStatus.FAILED_PRECONDITION:
      return A2AErrorCode.UnsupportedOperation;
    case GrpcStatus.ABORTED:
      return A2AErrorCode.TaskGenerationMismatch;
    case GrpcStatus.UNIMPLEMENTED:
      return A2AErrorCode.MethodNotFound;
    case GrpcStatus.UNAVAILABLE:
      return A2AErrorCode.Unavailable;
    case GrpcStatus.UNAUTHENTICATED:
      return A2AErrorCode.Unauthenticated;
    default:
      return A2AErrorCode.Internal;
  }
}

/** ErrorInfo domain for a code. */
export function errorDomain(code: A2AErrorCode): string {
  return ERROR_TABLE[code].a2a ? A2A_ERROR_DOMAIN : POLYGLOT_ERROR_DOMAIN;
}
