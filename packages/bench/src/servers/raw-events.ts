import { randomUUID } from 'node:crypto';
import { chunkText } from '../agents/agent-mode.js';

/**
 * The events the raw ceilings send: JSON shaped and sized like the A2A stream events
 * (a task, a status update, K artifact chunks, a final status), about 150-300 bytes each,
 * built with one `JSON.stringify` per event — the least work a real server could do.
 */
export function rawStreamEvent(i: number, k: number, ids: { taskId: string; contextId: string; artifactId: string }): string {
  const { taskId, contextId, artifactId } = ids;
  let result: unknown;
  if (i === 0) result = { task: { id: taskId, contextId, status: { state: 'TASK_STATE_SUBMITTED', timestamp: new Date().toISOString() } } };
  else if (i === 1) result = { statusUpdate: { taskId, contextId, status: { state: 'TASK_STATE_WORKING', timestamp: new Date().toISOString() } } };
  else if (i < k + 2) {
    const c = i - 2;
    result = {
      artifactUpdate: { taskId, contextId, artifact: { artifactId, name: 'result', parts: [{ text: chunkText(c) }] }, append: c > 0, lastChunk: c === k - 1 },
    };
  } else result = { statusUpdate: { taskId, contextId, status: { state: 'TASK_STATE_COMPLETED', timestamp: new Date().toISOString() } } };
  return JSON.stringify({ jsonrpc: '2.0', id: 1, result });
}

/** Fresh ids for one raw stream. */
export function rawStreamIds(): { taskId: string; contextId: string; artifactId: string } {
  return { taskId: randomUUID(), contextId: randomUUID(), artifactId: randomUUID() };
}

/** Stream parameters of the raw ceilings: `stream K`, `pause K MS`, `idle`. */
export interface RawStreamParams {
  readonly k: number;
  readonly pauseMs: number;
  readonly idle: boolean;
}
