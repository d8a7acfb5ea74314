/**
 * What the OPERATIONS table calls: the eleven operation methods and the observer seam, as an
 * interface apart from the `RequestHandler` class. The table (and what it imports: observer,
 * call logging) depends on this, never on the handler, so the handler's modules can import
 * the table's helpers without an import circle. `RequestHandler` implements it.
 */
import type {
  AgentCard,
  CancelTaskRequest,
  DeleteTaskPushNotificationConfigRequest,
  GetExtendedAgentCardRequest,
  GetTaskPushNotificationConfigRequest,
  GetTaskRequest,
  ListTaskPushNotificationConfigsRequest,
  ListTaskPushNotificationConfigsResponse,
  ListTasksRequest,
  ListTasksResponse,
  SendMessageRequest,
  SendMessageResponse,
  SubscribeToTaskRequest,
  Task,
  TaskPushNotificationConfig,
} from '@a2a-polyglot/model';
import type { CallContext } from './call-context.js';
import type { EventStream } from './event-stream.js';
import type { CallObserver } from './observer.js';
import type { Caller } from './request-handler-helpers.js';

/** The A2A operations one handler serves, in the proto request and response types (spec §4). */
export interface OperationHandler {
  /** Metrics / traces seam; the OPERATIONS table reports every call to it. */
  readonly observer: CallObserver | undefined;
  sendMessage(request: SendMessageRequest, ctx: CallContext): Promise<SendMessageResponse>;
  sendStreamingMessage(request: SendMessageRequest, ctx: CallContext): Promise<EventStream>;
  getTask(request: GetTaskRequest, ctx: CallContext): Promise<Task>;
  listTasks(request: ListTasksRequest, ctx: CallContext): Promise<ListTasksResponse>;
  cancelTask(request: CancelTaskRequest, ctx: CallContext): Promise<Task>;
  subscribeToTask(request: SubscribeToTaskRequest, ctx: CallContext, resumeAfterSeq?: number): Promise<EventStream>;
  createTaskPushNotificationConfig(request: TaskPushNotificationConfig, ctx: CallContext): Promise<TaskPushNotificationConfig>;
  getTaskPushNotificationConfig(request: GetTaskPushNotificationConfigRequest, ctx: CallContext): Promise<TaskPushNotificationConfig>;
  listTaskPushNotificationConfigs(request: ListTaskPushNotificationConfigsRequest, ctx: CallContext): Promise<ListTaskPushNotificationConfigsResponse>;
  deleteTaskPushNotificationConfig(request: DeleteTaskPushNotificationConfigRequest, ctx: CallContext): Promise<void>;
  getExtendedAgentCard(request: GetExtendedAgentCardRequest, ctx: CallContext): Promise<AgentCard>;
  /**
   * The preamble every operation runs (authentication, tenant, version, extensions), alone:
   * for an interceptor that answers a call itself and must know the caller first.
   */
  caller(ctx: CallContext, requestTenant: string): Promise<Caller>;
}
