import type { QueuedRun } from '@a2a-polyglot/core';
import { Message, SendMessageConfiguration } from '@a2a-polyglot/model';

/**
 * A queued run as JSON: the message and configuration as ProtoJSON (so bytes parts and
 * timestamps round-trip exactly, as in the task rows), the rest as plain JSON values.
 */
export function encodeQueuedRun(run: QueuedRun): string {
  return JSON.stringify({
    ...run,
    message: Message.toJSON(run.message),
    configuration: run.configuration && SendMessageConfiguration.toJSON(run.configuration),
  });
}

/** Reverses {@link encodeQueuedRun}; accepts the text or an already parsed value (PostgreSQL jsonb). */
export function decodeQueuedRun(stored: unknown): QueuedRun {
  const json = (typeof stored === 'string' ? JSON.parse(stored) : stored) as Record<string, unknown> & QueuedRun;
  return {
    ...json,
    message: Message.fromJSON(json.message),
    configuration: json.configuration === undefined ? undefined : SendMessageConfiguration.fromJSON(json.configuration),
  };
}
