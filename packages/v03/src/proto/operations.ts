import type { OperationName } from '@a2a-polyglot/core';
import type { MessageFns } from '@a2a-polyglot/model';
import * as v03 from '@a2a-polyglot/model/v03';
import { agentCardToV1 } from './agent-card.js';
import {
  createPushConfigRequestToV03,
  deletePushConfigRequestToV03,
  getPushConfigRequestToV03,
  listPushConfigsRequestToV03,
  listPushConfigsResponseToV1,
  taskPushConfigToV1,
} from './push-config.js';
import { cancelTaskRequestToV03, getAgentCardRequestToV03, getTaskRequestToV03, sendMessageRequestToV03, subscribeRequestToV03 } from './requests.js';
import { sendMessageResponseToV1, taskToV1 } from './task.js';

/**
 * How a v0.3 client (gRPC, or REST with its ProtoJSON) carries a v1.0 operation: the decoded
 * v1.0 request converted to the v0.3 request message, and the v0.3 answer converted back to the
 * v1.0 response message. Used by our client's v0.3 transports and the conformance drivers.
 */
export interface V03Operation {
  /** The v0.3 gRPC RPC (`TaskSubscription` for SubscribeToTask). */
  readonly rpc: string;
  /*
   * The converters are declared as methods: each entry's converter names the message type of
   * its own operation, while callers (transports, drivers) hold the decoded request or the
   * answer as `unknown`, the operation having been chosen by name. Method parameters are
   * compared bivariantly, which is what lets one table hold them all without `any`.
   */
  /** Decoded v1.0 request of this operation → v0.3 request message. */
  toV03(request: unknown): unknown;
  /** v0.3 answer message of this RPC → v1.0 response message (undefined for Empty and streams). */
  toV1(response: unknown): unknown;
  /** Codec of the v0.3 answer (REST reads it from JSON); undefined for Empty and streams. */
  readonly response?: MessageFns<unknown>;
}

const none = (): undefined => undefined;

/** Every operation v0.3 can express (ListTasks has no v0.3 form). */
export const V03_OPERATIONS: Readonly<Partial<Record<OperationName, V03Operation>>> = {
  SendMessage: { rpc: 'SendMessage', toV03: sendMessageRequestToV03, toV1: sendMessageResponseToV1, response: v03.SendMessageResponse },
  SendStreamingMessage: { rpc: 'SendStreamingMessage', toV03: sendMessageRequestToV03, toV1: none },
  GetTask: { rpc: 'GetTask', toV03: getTaskRequestToV03, toV1: taskToV1, response: v03.Task },
  CancelTask: { rpc: 'CancelTask', toV03: cancelTaskRequestToV03, toV1: taskToV1, response: v03.Task },
  SubscribeToTask: { rpc: 'TaskSubscription', toV03: subscribeRequestToV03, toV1: none },
  CreateTaskPushNotificationConfig: {
    rpc: 'CreateTaskPushNotificationConfig',
    toV03: createPushConfigRequestToV03,
    toV1: taskPushConfigToV1,
    response: v03.TaskPushNotificationConfig,
  },
  GetTaskPushNotificationConfig: {
    rpc: 'GetTaskPushNotificationConfig',
    toV03: getPushConfigRequestToV03,
    toV1: taskPushConfigToV1,
    response: v03.TaskPushNotificationConfig,
  },
  ListTaskPushNotificationConfigs: {
    rpc: 'ListTaskPushNotificationConfig',
    toV03: listPushConfigsRequestToV03,
    toV1: listPushConfigsResponseToV1,
    response: v03.ListTaskPushNotificationConfigResponse,
  },
  DeleteTaskPushNotificationConfig: { rpc: 'DeleteTaskPushNotificationConfig', toV03: deletePushConfigRequestToV03, toV1: none },
  GetExtendedAgentCard: { rpc: 'GetAgentCard', toV03: getAgentCardRequestToV03, toV1: agentCardToV1, response: v03.AgentCard },
};

/** The v0.3 form of an operation, or undefined when v0.3 has none (ListTasks). */
export function v03Operation(operation: OperationName): V03Operation | undefined {
  return V03_OPERATIONS[operation];
}
