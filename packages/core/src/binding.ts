/**
 * `@a2a-polyglot/core/binding` — for authors of a wire binding (JSON-RPC, REST, gRPC,
 * WebSocket are the four here): the operation table to dispatch through, the handler contract
 * to serve, the call context to build, the error table to encode from, the event streams to
 * pipe and their pacing, and protocol-version negotiation.
 */
export {
  decodeJsonRequest,
  findOperation,
  OPERATIONS,
  operationByName,
  streamEventToJson,
  type DecodeRequestOptions,
  type Operation,
  type StreamOperation,
  type UnaryOperation,
} from './operations.js';
export type { OperationName, OperationRequest, OperationResponse, OperationResult, StreamOperationName } from './operation-types.js';
export type { OperationHandler } from './operation-handler.js';
export type { InterceptedHandler } from './operation-interceptor.js';
export type { ServedHandler } from './served-handler.js';
export { callContext, clientCertificateOf, requestLogger, type BindingName, type CallContext, type ClientCertificate } from './call-context.js';
export { codeFromGrpcStatus, codeFromJsonRpc, codeFromReason, ERROR_TABLE, errorDomain, GrpcStatus } from './error-table.js';
export {
  BAD_REQUEST_TYPE,
  ERROR_INFO_TYPE,
  errorDetails,
  fromHttpError,
  fromJsonRpcError,
  toHttpErrorBody,
  toJsonRpcError,
  type ErrorDetailJson,
} from './error-wire.js';
export { GRPC_METADATA, GRPC_STATUS_DETAILS_KEY } from './grpc-metadata.js';
export { ALL_ERROR_CODES } from './error-code.js';
export { logFailure } from './server-fault.js';
export { retryAfterSeconds } from './rate-limit.js';
export { eventStreamFrom, failedEventStream, singleEventStream, type EventStream, type PollResult, WAIT } from './event-stream.js';
export { DELIVERY_TURN_FRAMES } from './delivery-pace.js';
export { BoundedWriter, type BoundedWriterOptions, type DeliverySink } from './delivery/bounded-writer.js';
export { DELIVERY_GROUP_SIZE, EventDelivery, type DeliveryResult, type EventDeliveryOptions } from './delivery/event-delivery.js';
export { HeartbeatClock, heartbeatClock, type HeartbeatMember } from './delivery/heartbeat-clock.js';
export { resumeCursor } from './resume-cursor.js';
export { EXPERIMENTAL_VERSION, negotiateVersion, SUPPORTED_VERSIONS, type NegotiatedVersion, type ProtocolVersion } from './protocol-version.js';
export { checkReadiness, type ReadinessCheck, type ReadinessCheckResult, type ReadinessOptions, type ReadinessReport } from './readiness.js';
