import { ERROR_TABLE, OPERATIONS, type A2AError } from '@a2a-polyglot/core';
import { V03A2AServiceService } from '@a2a-polyglot/model/grpc';
import { V03_SERVED_OPERATIONS, type V03ServedName, type V03ServedOperation } from '@a2a-polyglot/v03/proto';
import type { StatusWording } from './grpc-error.js';
import { type GeneratedMethod, type GrpcDialect, type RpcRoute, rpcRoute } from './grpc-dialect.js';

/**
 * Each v0.3 RPC: the v1.0 operation that implements it and the @a2a-polyglot/v03 converters
 * around it. ListTasks has no v0.3 RPC.
 */
const S = V03A2AServiceService;

/** The route of v0.3 RPC `method`: the v1.0 operation `name` with its converters (one table, shared with REST). */
function served<Req, Wire>(method: GeneratedMethod<Req, Wire>, name: V03ServedName): RpcRoute {
  const { toV1, toV03 } = V03_SERVED_OPERATIONS[name] as V03ServedOperation;
  return rpcRoute(method, OPERATIONS[name], toV1, (response: unknown) => toV03(response) as Wire);
}

const V03_ROUTES: Readonly<Record<string, RpcRoute>> = {
  SendMessage: served(S.sendMessage, 'SendMessage'),
  SendStreamingMessage: served(S.sendStreamingMessage, 'SendStreamingMessage'),
  GetTask: served(S.getTask, 'GetTask'),
  CancelTask: served(S.cancelTask, 'CancelTask'),
  TaskSubscription: served(S.taskSubscription, 'SubscribeToTask'),
  CreateTaskPushNotificationConfig: served(S.createTaskPushNotificationConfig, 'CreateTaskPushNotificationConfig'),
  GetTaskPushNotificationConfig: served(S.getTaskPushNotificationConfig, 'GetTaskPushNotificationConfig'),
  ListTaskPushNotificationConfig: served(S.listTaskPushNotificationConfig, 'ListTaskPushNotificationConfigs'),
  DeleteTaskPushNotificationConfig: served(S.deleteTaskPushNotificationConfig, 'DeleteTaskPushNotificationConfig'),
  GetAgentCard: served(S.getAgentCard, 'GetExtendedAgentCard'),
};

/**
 * v0.3 status text: the v0.3 error class name first (`TaskNotFoundError: Task x not found`),
 * as v0.3 gRPC clients parse it (spec §12.3).
 */
export function v03StatusMessage(error: A2AError): string {
  return `${ERROR_TABLE[error.code].v03.name}: ${error.message}`;
}

/**
 * The v0.3 status of a failed call: {@link v03StatusMessage}, and the ERROR_TABLE grpc code
 * unless its v0.3 column names another (PushNotificationNotSupported is UNIMPLEMENTED, the only
 * code the 0.3.14 gRPC client maps to PushNotificationNotSupportedError).
 */
export function v03Status(error: A2AError): StatusWording {
  const row = ERROR_TABLE[error.code];
  return { code: row.v03.grpc ?? row.grpc, message: v03StatusMessage(error) };
}

/**
 * The A2A v0.3 dialect (`a2a.v1.A2AService`, 10 RPCs; spec §12.6): each call decoded with the
 * generated v0.3 codec, converted to the v1.0 request, run through the same OPERATIONS entry
 * with `wireVersion: '0.3'` (a call naming `a2a-version: 1.0` is refused by the core), the
 * answer converted back, failures worded by {@link v03Status}.
 */
export const V03_GRPC: GrpcDialect = {
  route(rpc: string): RpcRoute {
    const route = V03_ROUTES[rpc];
    if (!route) throw new Error(`No v0.3 route for RPC ${rpc}`);
    return route;
  },
  wireVersion: '0.3',
  status: v03Status,
};
