import type { Json } from './normalize.js';
import type { Scenario, SendSpec, Step } from './scenario.js';

/**
 * What the runner derives from scenario steps themselves: the request of a `send`
 * shorthand, a step's label, whether a scenario needs a webhook receiver, and the ids a
 * stream's events name (for `$s.id` placeholders).
 */

/** What the runner remembers of a stream for placeholders (`$s.id`, `$s.contextId`, `$s.lastSeq`). */
export interface SavedStream {
  id?: unknown;
  contextId?: unknown;
  lastSeq?: number;
}

/** The SendMessageRequest JSON of a `send` shorthand. */
export function sendRequest(spec: SendSpec, index: number): Json {
  const message: Record<string, Json> = {
    messageId: spec.messageId ?? `msg-${index}`,
    role: 'ROLE_USER',
    parts: [{ text: spec.text ?? `step ${index}` }],
  };
  if (spec.taskId !== undefined) message.taskId = spec.taskId;
  if (spec.contextId !== undefined) message.contextId = spec.contextId;
  const request: Record<string, Json> = { message, metadata: { script: (spec.script ?? []) as unknown as Json } };
  if (spec.tenant !== undefined) request.tenant = spec.tenant;
  if (spec.configuration !== undefined) request.configuration = spec.configuration;
  return request;
}

/** Remembers the task id / context id a stream is about, for `$s.id` placeholders. */
export function recordIds(saved: SavedStream, event: unknown): void {
  if (saved.id !== undefined || typeof event !== 'object' || event === null) return;
  const e = event as Record<string, Record<string, unknown> | undefined>;
  const update = e.statusUpdate ?? e.artifactUpdate;
  if (e.task) {
    saved.id = e.task.id;
    saved.contextId = e.task.contextId;
  } else if (update) {
    saved.id = update.taskId;
    saved.contextId = update.contextId;
  }
}

export function usesWebhook(scenario: Scenario): boolean {
  return scenario.steps.some((s) => 'webhook' in s) || JSON.stringify(scenario.steps).includes('"$webhook.');
}

export function describe(step: Step): string {
  if ('call' in step) return `call ${step.call}`;
  if ('stream' in step) return `stream ${step.stream}${step.resumeAfter !== undefined ? ' (resume)' : ''}`;
  if ('drain' in step) return `drain ${step.drain}`;
  if ('openGate' in step) return `open gate ${step.openGate}`;
  if ('probe' in step) return `probe ${step.probe}`;
  if ('webhook' in step) return `webhook ${step.webhook}`;
  return 'agent card';
}
