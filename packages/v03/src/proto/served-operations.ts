import type { OperationName } from '@a2a-polyglot/core';
import { agentCardToV03 } from './agent-card.js';
import {
  createPushConfigRequestToV1,
  deletePushConfigRequestToV1,
  getPushConfigRequestToV1,
  listPushConfigsRequestToV1,
  listPushConfigsResponseToV03,
  taskPushConfigToV03,
} from './push-config.js';
import { cancelTaskRequestToV1, getAgentCardRequestToV1, getTaskRequestToV1, sendMessageRequestToV1, subscribeRequestToV1 } from './requests.js';
import { sendMessageResponseToV03, streamResponseToV03, taskToV03 } from './task.js';

/**
 * How a server answers a v0.3 call with a v1.0 operation: the v0.3 request message converted
 * to the v1.0 request, and the v1.0 answer converted back to its v0.3 message. The server-side
 * twin of {@link V03_OPERATIONS} (the client's direction), shared by the gRPC v0.3 service and
 * the v0.3 REST routes so neither keeps its own list of the operations' converters.
 */
export interface V03ServedOperation {
  /* Declared as methods, as in V03Operation: callers hold the messages as `unknown`. */
  /** v0.3 request message → the v1.0 request of this operation. */
  toV1(request: unknown): unknown;
  /** The v1.0 answer (response message, or one stream event) → its v0.3 message. */
  toV03(response: unknown): unknown;
}

/** Every operation v0.3 can express (ListTasks has none), server side; each entry keeps its converters' own types. */
export const V03_SERVED_OPERATIONS = {
  SendMessage: { toV1: sendMessageRequestToV1, toV03: sendMessageResponseToV03 },
  SendStreamingMessage: { toV1: sendMessageRequestToV1, toV03: streamResponseToV03 },
  GetTask: { toV1: getTaskRequestToV1, toV03: taskToV03 },
  CancelTask: { toV1: cancelTaskRequestToV1, toV03: taskToV03 },
  SubscribeToTask: { toV1: subscribeRequestToV1, toV03: streamResponseToV03 },
  CreateTaskPushNotificationConfig: { toV1: createPushConfigRequestToV1, toV03: taskPushConfigToV03 },
  GetTaskPushNotificationConfig: { toV1: getPushConfigRequestToV1, toV03: taskPushConfigToV03 },
  ListTaskPushNotificationConfigs: { toV1: listPushConfigsRequestToV1, toV03: listPushConfigsResponseToV03 },
  DeleteTaskPushNotificationConfig: { toV1: deletePushConfigRequestToV1, toV03: () => ({}) },
  GetExtendedAgentCard: { toV1: getAgentCardRequestToV1, toV03: agentCardToV03 },
} as const satisfies Readonly<Record<V03ServedName, V03ServedOperation>>;

/** The operations a v0.3 call can name. */
export type V03ServedName = Exclude<OperationName, 'ListTasks'>;
