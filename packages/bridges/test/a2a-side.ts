import { callContext, RequestHandler, textPart, type AgentExecutor, type LoggedEvent } from '@a2a-polyglot/core';
import { recordingLogger, type RecordingLogger, testAgentCard } from '@a2a-polyglot/testing';
import { Role, StreamResponse, type AgentCard, type SendMessageRequest } from '@a2a-polyglot/model';
import { BridgeRegistry } from '../src/index.js';

export const AGENT_NAME = 'Bridge Agent';

/** The shared test card for a bridged agent (streaming on, push off), taking `inputModes` (default text). */
export function card(name = AGENT_NAME, inputModes: readonly string[] = ['text/plain']): AgentCard {
  return testAgentCard({
    name,
    description: 'bridged test agent',
    defaultInputModes: [...inputModes],
    capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false, extensions: [] },
  });
}

/** Collects log lines so tests can check what was logged (and that secrets were not). */
export type MemoryLogger = RecordingLogger & { text(): string };

/** A {@link MemoryLogger}: a recording logger whose `text()` is every line as JSON. */
export function memoryLogger(): MemoryLogger {
  const logger = recordingLogger();
  return Object.assign(logger, { text: () => JSON.stringify(logger.lines) });
}

/** A bridged agent served by an in-process RequestHandler. */
export interface Bridged {
  readonly handler: RequestHandler;
  readonly executor: AgentExecutor;
  readonly logger: MemoryLogger;
  close(): Promise<void>;
}

export async function bridged(handlerName: string, settings: Record<string, unknown>, env: Record<string, string> = {}): Promise<Bridged> {
  const logger = memoryLogger();
  const registry = new BridgeRegistry();
  const executor = await registry.create(handlerName, { agentId: 'test', agentName: AGENT_NAME, agentSettings: settings, env, logger });
  // The card declares what the bridge reads, as the executor's card does (Bridge.inputModes).
  const handler = new RequestHandler({ card: card(AGENT_NAME, registry.get(handlerName)?.inputModes), executor, logger, cancelHookTimeoutMs: 2000 });
  return {
    handler,
    executor,
    logger,
    close: async () => {
      await handler.shutdown(200);
      await (executor as { close?: () => Promise<void> }).close?.();
    },
  };
}

export const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' });

/** A SendMessageRequest with one text part. */
export function send(text: string, options: { taskId?: string; contextId?: string; returnImmediately?: boolean; data?: unknown } = {}): SendMessageRequest {
  const parts = [textPart(text)];
  if (options.data !== undefined)
    parts.push({ content: { $case: 'data', value: options.data }, metadata: undefined, filename: '', mediaType: 'application/json' });
  return {
    tenant: '',
    message: {
      messageId: crypto.randomUUID(),
      contextId: options.contextId ?? '',
      taskId: options.taskId ?? '',
      role: Role.ROLE_USER,
      parts,
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: options.returnImmediately ? { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: true } : undefined,
    metadata: undefined,
  };
}

/** Every event of a stream, as ProtoJSON (what a wire client sees). */
export async function streamJson(handler: RequestHandler, request: SendMessageRequest): Promise<any[]> {
  const stream = await handler.sendStreamingMessage(request, ctx());
  const out: any[] = [];
  for await (const e of stream as AsyncIterable<LoggedEvent>) out.push(StreamResponse.toJSON(e.event));
  return out;
}

/** A compact trace of a stream: `task:SUBMITTED`, `status:WORKING`, `chunk:"he"+`, `chunk:"llo"!` (+ append, ! lastChunk). */
export function trace(events: any[]): string[] {
  return events.map((e) => {
    if (e.task) return `task:${short(e.task.status.state)}`;
    if (e.statusUpdate) return `status:${short(e.statusUpdate.status.state)}`;
    if (e.artifactUpdate) {
      const u = e.artifactUpdate;
      return `chunk:${JSON.stringify(u.artifact.parts.map((p: any) => p.text).join(''))}${u.append ? '+' : ''}${u.lastChunk ? '!' : ''}`;
    }
    if (e.message) return `message:${JSON.stringify(e.message.parts.map((p: any) => p.text).join(''))}`;
    return 'unknown';
  });
}

/** The status message text of the last status update. */
export function lastStatusText(events: any[]): string {
  const last = [...events].reverse().find((e) => e.statusUpdate);
  return (last?.statusUpdate.status.message?.parts ?? []).map((p: any) => p.text ?? '').join('');
}

function short(state: string): string {
  return state.replace('TASK_STATE_', '');
}

/** Every artifact chunk's artifactId. */
export const artifactIds = (events: any[]) => events.filter((e) => e.artifactUpdate).map((e) => e.artifactUpdate.artifact.artifactId);
