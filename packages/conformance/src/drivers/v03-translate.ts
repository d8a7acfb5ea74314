import { streamEventToJson, type OperationName } from '@a2a-polyglot/core';
import type { MessageFns, StreamResponse } from '@a2a-polyglot/model';
import * as v03 from '@a2a-polyglot/model/v03';
import {
  agentCardToV1,
  cancelTaskRequestToV03,
  createPushConfigRequestToV03,
  deletePushConfigRequestToV03,
  getAgentCardRequestToV03,
  getPushConfigRequestToV03,
  getTaskRequestToV03,
  listPushConfigsRequestToV03,
  listPushConfigsResponseToV1,
  sendMessageRequestToV03,
  sendMessageResponseToV1,
  streamResponseToV1,
  subscribeRequestToV03,
  taskPushConfigToV1,
  taskToV1,
} from '@a2a-polyglot/v03/proto';

/**
 * How the v0.3 drivers (gRPC and REST) carry an operation: the scenario's v1.0 request is
 * decoded with the core operation's codec, converted to the v0.3 request with the
 * @a2a-polyglot/v03 converters, sent, and the v0.3 answer converted back to the v1.0 message
 * that the operation's own JSON encoder turns into the ProtoJSON the comparator expects. A v0.3
 * client sees exactly these v0.3 messages; only the direction of conversion is the driver's.
 * @internal
 */
export interface V03Translation {
  /** The v0.3 gRPC RPC (`TaskSubscription` for SubscribeToTask). */
  readonly rpc: string;
  /** Decoded v1.0 request → v0.3 request message. */
  readonly toV03: (request: any) => unknown;
  /** v0.3 answer message → v1.0 response message (undefined for Empty and streams). */
  readonly toV1: (response: any) => unknown;
  /** Codec of the v0.3 answer (REST reads it from JSON); undefined for Empty and streams. */
  readonly response?: MessageFns<any>;
}

const none = (): undefined => undefined;

/** Every operation v0.3 can express (ListTasks has no v0.3 form). @internal */
export const V03_TRANSLATIONS: Readonly<Partial<Record<OperationName, V03Translation>>> = {
  SendMessage: { rpc: 'SendMessage', toV03: sendMessageRequestToV03, toV1: sendMessageResponseToV1, response: v03.SendMessageResponse },
  SendStreamingMessage: { rpc: 'SendStreamingMessage', toV03: sendMessageRequestToV03, toV1: none },
  GetTask: { rpc: 'GetTask', toV03: getTaskRequestToV03, toV1: taskToV1, response: v03.Task },
  CancelTask: { rpc: 'CancelTask', toV03: cancelTaskRequestToV03, toV1: taskToV1, response: v03.Task },
  SubscribeToTask: { rpc: 'TaskSubscription', toV03: subscribeRequestToV03, toV1: none },
  CreateTaskPushNotificationConfig: { rpc: 'CreateTaskPushNotificationConfig', toV03: createPushConfigRequestToV03, toV1: taskPushConfigToV1, response: v03.TaskPushNotificationConfig },
  GetTaskPushNotificationConfig: { rpc: 'GetTaskPushNotificationConfig', toV03: getPushConfigRequestToV03, toV1: taskPushConfigToV1, response: v03.TaskPushNotificationConfig },
  ListTaskPushNotificationConfigs: {
    rpc: 'ListTaskPushNotificationConfig',
    toV03: listPushConfigsRequestToV03,
    toV1: listPushConfigsResponseToV1,
    response: v03.ListTaskPushNotificationConfigResponse,
  },
  DeleteTaskPushNotificationConfig: { rpc: 'DeleteTaskPushNotificationConfig', toV03: deletePushConfigRequestToV03, toV1: none },
  GetExtendedAgentCard: { rpc: 'GetAgentCard', toV03: getAgentCardRequestToV03, toV1: agentCardToV1, response: v03.AgentCard },
};

/** The translation of an operation, or an error naming what v0.3 cannot express. @internal */
export function v03Translation(operation: string): V03Translation {
  const t = V03_TRANSLATIONS[operation as OperationName];
  if (!t) throw new Error(`A2A v0.3 has no form of ${operation}`);
  return t;
}

/** A v0.3 stream event as the v1.0 StreamResponse JSON the comparator expects. @internal */
export function v03EventToJson(event: v03.StreamResponse): unknown {
  return streamEventToJson(streamResponseToV1(event) as StreamResponse);
}
