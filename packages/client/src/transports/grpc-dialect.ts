import { A2AError, A2AErrorCode, type OperationName } from '@a2a-polyglot/core';
import type {
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTasksRequest,
  SendMessageRequest,
  TaskPushNotificationConfig,
} from '@a2a-polyglot/model';
import type { GrpcCallOptions } from './grpc-channel.js';
import type { GrpcEventStream, GrpcTransport as GrpcClient } from './grpc-service-client.js';

/**
 * One typed method of the gRPC client, called with the decoded request of its operation.
 * Declared as a method: each entry names the request type of its own operation while the
 * transport holds the request as `unknown` (method parameters are compared bivariantly).
 */
interface UnaryCall {
  call(client: GrpcClient, request: unknown, options: GrpcCallOptions): Promise<unknown>;
}

/**
 * How one generation of A2A calls the gRPC service: v1.0 `lf.a2a.v1.A2AService`, or v0.3
 * `a2a.v1.A2AService`. Requests go in, and answers come out, as v1.0 messages; the channel,
 * deadlines, aborts and errors are the transport's, the same for both.
 */
export interface GrpcDialect {
  /** `false`: no `a2a-version` metadata (v0.3). */
  readonly versionMetadata: boolean;
  /** One unary call; resolves to the v1.0 response. */
  unary(client: GrpcClient, operation: OperationName, request: unknown, options: GrpcCallOptions): Promise<unknown>;
  /** Opens a stream of v1.0 events. */
  stream(client: GrpcClient, operation: OperationName, request: unknown, options: GrpcCallOptions, resumeAfterSeq: number | undefined): GrpcEventStream;
}

/** Operation name → the typed method of the gRPC client (`lf.a2a.v1.A2AService`). */
const UNARY: Readonly<Partial<Record<OperationName, UnaryCall>>> = {
  SendMessage: { call: (c, r: SendMessageRequest, o) => c.sendMessage(r, o) },
  GetTask: { call: (c, r: GetTaskRequest, o) => c.getTask(r, o) },
  ListTasks: { call: (c, r: ListTasksRequest, o) => c.listTasks(r, o) },
  CancelTask: { call: (c, r: CancelTaskRequest, o) => c.cancelTask(r, o) },
  CreateTaskPushNotificationConfig: { call: (c, r: TaskPushNotificationConfig, o) => c.createTaskPushNotificationConfig(r, o) },
  GetTaskPushNotificationConfig: { call: (c, r: GetTaskPushNotificationConfigRequest, o) => c.getTaskPushNotificationConfig(r, o) },
  ListTaskPushNotificationConfigs: { call: (c, r: ListTaskPushNotificationConfigsRequest, o) => c.listTaskPushNotificationConfigs(r, o) },
  DeleteTaskPushNotificationConfig: { call: (c, r: DeleteTaskPushNotificationConfigRequest, o) => c.deleteTaskPushNotificationConfig(r, o) },
  GetExtendedAgentCard: { call: (c, r: GetExtendedAgentCardRequest, o) => c.getExtendedAgentCard(r, o) },
};

/** A2A v1.0 over gRPC (`lf.a2a.v1.A2AService`), through the typed client of `grpc-service-client.ts`. */
export const V1_GRPC: GrpcDialect = {
  versionMetadata: true,
  unary(client, operation, request, options) {
    const entry = UNARY[operation];
    if (!entry) throw new A2AError(A2AErrorCode.MethodNotFound, `${operation} is not a unary gRPC method`);
    return entry.call(client, request, options);
  },
  stream: (client, operation, request, options, resumeAfterSeq) =>
    operation === 'SubscribeToTask'
      ? client.subscribeToTask(request as never, { ...options, lastEventId: resumeAfterSeq })
      : client.sendStreamingMessage(request as never, options),
};
