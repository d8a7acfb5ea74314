/**
 * The names of the A2A operations, apart from the OPERATIONS table so the modules the table
 * calls into (observers, call logging, request ids) can name an operation without importing
 * the table, and through it the handler.
 */
/** The 11 A2A operations, by their JSON-RPC / gRPC method name (spec §4). */
export type OperationName =
  | 'SendMessage'
  | 'SendStreamingMessage'
  | 'GetTask'
  | 'ListTasks'
  | 'CancelTask'
  | 'SubscribeToTask'
  | 'CreateTaskPushNotificationConfig'
  | 'GetTaskPushNotificationConfig'
  | 'ListTaskPushNotificationConfigs'
  | 'DeleteTaskPushNotificationConfig'
  | 'GetExtendedAgentCard';
