import type { LongPollResult } from '../results.js';
import { fmtInt, fmtNum } from './format.js';

/** The goal of protocol issue item 6: a long poll answers within this long (p50) of the next event. */
export const LONG_POLL_WAKE_GOAL_MS = 5;

/** The long-poll scenario's section: wake latency of GetTask long polls. Empty when it did not run. */
export function renderLongPoll(result: LongPollResult | undefined): string[] {
  if (!result) return [];
  const out = ['## A2A 1.1 long poll: GetTask ?currentGeneration= woken by the next event (ours REST)', ''];
  if (result.failure) {
    out.push(`Not measured: ${result.failure}`, '');
    return out;
  }
  out.push(
    `${result.tasks} tasks × ${result.k} chunks, ${result.pauseMs} ms apart, each followed by long polls only: ` +
      `answer read − chunk emitted, p50 **${fmtNum(result.p50Ms)} ms**, p99 **${fmtNum(result.p99Ms)} ms**, max ${fmtNum(result.maxMs)} ms ` +
      `over ${fmtInt(result.wakes)} wakes${result.late > 0 ? ` (${result.late} polls came late and are not counted)` : ''}. ` +
      `Goal: p50 ≤ ${LONG_POLL_WAKE_GOAL_MS} ms.`,
    '',
  );
  return out;
}
