import type { CallContext, RequestHandler } from '@a2a-polyglot/core';
import { Role, SendMessageRequest } from '@a2a-polyglot/model';
import { agentModeText, type AgentMode } from '../agents/agent-mode.js';

/** One operation the core budget measures, run back to back against one handler. */
export interface CoreCase {
  /** Stable id (results.json, report rows). */
  readonly id: 'task' | 'message' | 'stream-event';
  readonly label: string;
  /** The issue-14 budget, µs of CPU per unit. */
  readonly budgetUs: number;
  /** Units one call stands for (events for the stream case, else 1). */
  readonly unitsPerCall: number;
  run(handler: RequestHandler, ctx: CallContext, i: number): Promise<void>;
}

/** Chunks per stream of the per-event case: large enough that the task's fixed cost is a small share. */
export const STREAM_CHUNKS = 100;

/** Sends made by this process: every request's messageId is new, so no call is answered as a replay (idempotent sends). */
let sent = 0;

/** A fresh request per call, as a binding's decoder would hand the core. */
function request(mode: AgentMode, i: number): SendMessageRequest {
  return SendMessageRequest.fromPartial({
    message: { messageId: `core-${i}-${++sent}`, role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: agentModeText(mode) } }] },
  });
}

/**
 * The three budgets of issue 14 item 1, measured in process with no sockets: what the
 * protocol work itself costs, apart from any transport.
 */
export const CORE_CASES: readonly CoreCase[] = [
  {
    id: 'task',
    label: 'SendMessage → Task (4 events)',
    budgetUs: 20,
    unitsPerCall: 1,
    async run(handler, ctx, i) {
      await handler.sendMessage(request({ kind: 'task' }, i), ctx);
    },
  },
  {
    id: 'message',
    label: 'SendMessage → Message',
    budgetUs: 8,
    unitsPerCall: 1,
    async run(handler, ctx, i) {
      await handler.sendMessage(request({ kind: 'message' }, i), ctx);
    },
  },
  {
    id: 'stream-event',
    label: `per streamed event (SendStreamingMessage, ${STREAM_CHUNKS} chunks)`,
    budgetUs: 2,
    unitsPerCall: STREAM_CHUNKS + 3,
    async run(handler, ctx, i) {
      const stream = await handler.sendStreamingMessage(request({ kind: 'stream', k: STREAM_CHUNKS, pauseMs: 0 }, i), ctx);
      while ((await stream.nextBatch()) !== undefined);
    },
  },
];
