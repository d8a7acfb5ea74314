import type { CallContext, RequestHandler } from '@a2a-polyglot/core';
import { encodeSendMessageResponseJson, encodeStreamResponseJson, Role, SendMessageRequest, SendMessageResponse, StreamResponse } from '@a2a-polyglot/model';
import { agentModeText } from '../agents/agent-mode.js';
import { STREAM_CHUNKS } from './cases.js';

/** What the encode cases turn into JSON text: real answers of the benchmark agent. */
export interface EncodeSamples {
  /** The events of one SendStreamingMessage with {@link STREAM_CHUNKS} chunks. */
  readonly events: readonly StreamResponse[];
  /** The answer of one SendMessage → Task (4 events: one artifact, completed). */
  readonly taskAnswer: SendMessageResponse;
}

/** How the JSON bindings turn a message into text: the generated path, or the model's direct encoders. */
export type EncoderId = 'generated' | 'direct';

export const ENCODERS: readonly (readonly [EncoderId, string])[] = [
  ['generated', 'JSON.stringify(X.toJSON(msg))'],
  ['direct', 'direct encoder (`encode*Json`)'],
];

/** One encoding the core budget measures, per encoder. */
export interface EncodeCase {
  readonly id: 'event' | 'task-answer';
  readonly label: string;
  /** Units one call stands for. */
  readonly unitsPerCall: number;
  /** Encodes `unitsPerCall` units; returns a sum of what it read back (kept, so nothing is optimised away). */
  run(samples: EncodeSamples, encoder: EncoderId): number;
}

/**
 * Reads the text as the SSE writer does first (`sseFrame` looks for line breaks): a text built
 * by concatenation is a rope until something reads it, and its flattening is part of its cost.
 */
function written(text: string): number {
  return text.length + text.indexOf('\n');
}

/** Task answers encoded per call: enough that the call's own overhead is a small share. */
const TASK_ANSWERS_PER_CALL = 20;

/**
 * The ProtoJSON encoding a JSON binding does per stream event (SSE `data:`, WebSocket frame)
 * and per Task answer, apart from the core cases (which stop at the handler's answer, before
 * any encoding): the generated path and the direct encoders on the same messages.
 */
export const ENCODE_CASES: readonly EncodeCase[] = [
  {
    id: 'event',
    label: `encode one stream event (StreamResponse; the ${STREAM_CHUNKS + 3} events of a stream)`,
    unitsPerCall: STREAM_CHUNKS + 3,
    run(samples, encoder) {
      let chars = 0;
      if (encoder === 'direct') for (const event of samples.events) chars += written(encodeStreamResponseJson(event));
      else for (const event of samples.events) chars += written(JSON.stringify(StreamResponse.toJSON(event)));
      return chars;
    },
  },
  {
    id: 'task-answer',
    label: 'encode the SendMessage → Task answer',
    unitsPerCall: TASK_ANSWERS_PER_CALL,
    run(samples, encoder) {
      let chars = 0;
      for (let i = 0; i < TASK_ANSWERS_PER_CALL; i++) {
        chars +=
          encoder === 'direct'
            ? written(encodeSendMessageResponseJson(samples.taskAnswer))
            : written(JSON.stringify(SendMessageResponse.toJSON(samples.taskAnswer)));
      }
      return chars;
    },
  },
];

function userMessage(text: string, id: string): SendMessageRequest {
  return SendMessageRequest.fromPartial({ message: { messageId: id, role: Role.ROLE_USER, parts: [{ content: { $case: 'text', value: text } }] } });
}

/** Runs one stream and one Task on `handler` (the benchmark agent) and keeps what they answered. */
export async function encodeSamples(handler: RequestHandler, ctx: CallContext): Promise<EncodeSamples> {
  const stream = await handler.sendStreamingMessage(userMessage(agentModeText({ kind: 'stream', k: STREAM_CHUNKS, pauseMs: 0 }), 'encode-stream'), ctx);
  const events: StreamResponse[] = [];
  for (let batch = await stream.nextBatch(); batch !== undefined; batch = await stream.nextBatch()) for (const logged of batch) events.push(logged.event);
  const taskAnswer = await handler.sendMessage(userMessage(agentModeText({ kind: 'task' }), 'encode-task'), ctx);
  return { events, taskAnswer };
}
