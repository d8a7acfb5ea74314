/**
 * Requests and readers the tests of the official @a2a-js/sdk 1.3.0 client share: a v1.0 send
 * built as the SDK's types want it (every member present), and the text and state of what
 * comes back. Runtime values (`Role`) are read from the SDK's CJS build when called, so the
 * test file's `jest.mock('jose')` is in place first (see interop-official-client.test.ts).
 */
import type * as Sdk from '@a2a-js/sdk' with { 'resolution-mode': 'import' };

/** A user text message with a fresh messageId (a new send, never an idempotent replay). */
export function sdkMessage(text: string, taskId = ''): Sdk.Message {
  const { Role } = require('@a2a-js/sdk') as typeof Sdk;
  return {
    messageId: crypto.randomUUID(),
    contextId: '',
    taskId,
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

/** SendMessage / SendStreamingMessage of `text`, optionally to a task and returning at once. */
export function sdkRequest(text: string, options: { taskId?: string; returnImmediately?: boolean } = {}): Sdk.SendMessageRequest {
  return {
    tenant: '',
    message: sdkMessage(text, options.taskId),
    configuration: options.returnImmediately
      ? { acceptedOutputModes: [], taskPushNotificationConfig: undefined, historyLength: undefined, returnImmediately: true }
      : undefined,
    metadata: undefined,
  };
}

/** The text parts, joined. */
export const textOf = (parts: ReadonlyArray<Sdk.Part> | undefined): string =>
  (parts ?? []).map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join('');

/** The task state a stream event carries (a Task or a status update), else undefined. */
export const stateOf = (e: Sdk.StreamResponse): Sdk.TaskState | undefined =>
  e.payload?.$case === 'task' ? e.payload.value.status?.state : e.payload?.$case === 'statusUpdate' ? e.payload.value.status?.state : undefined;
