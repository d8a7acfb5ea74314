/**
 * What the benchmark agents do, chosen by the text of the user message so every binding and
 * every server (ours, the SDK's, the raw ceilings) is driven the same way:
 *
 * - `message`        → one agent message, no task
 * - `task`           → task submitted → working → one artifact → completed (4 events)
 * - `stream K`       → submitted → working → K artifact chunks (append) → completed (K + 3 events), all at once
 * - `pause K MS`     → like `stream K`, but waits MS ms before every chunk (time to first event)
 * - `idle`           → submitted → working, then waits until the server stops (open idle streams)
 * - `stamp K MS D`   → like `pause K MS` after an initial wait of D ms, each chunk carrying the
 *                      wall-clock time it was emitted (cross-instance latency; our agent only)
 */
export type AgentMode =
  | { readonly kind: 'message' }
  | { readonly kind: 'task' }
  | { readonly kind: 'stream'; readonly k: number; readonly pauseMs: number; readonly stampDelayMs?: number }
  | { readonly kind: 'idle' };

/** Parses the request text; anything unknown is treated as `task`. */
export function parseAgentMode(text: string): AgentMode {
  const [word = '', a, b] = text.trim().split(/\s+/);
  switch (word) {
    case 'message':
      return { kind: 'message' };
    case 'stream':
      return { kind: 'stream', k: clampInt(a, 100), pauseMs: 0 };
    case 'pause':
      return { kind: 'stream', k: clampInt(a, 10), pauseMs: Math.max(0, Number(b) || 0) };
    case 'idle':
      return { kind: 'idle' };
    case 'stamp':
      return { kind: 'stream', k: clampInt(a, 10), pauseMs: Math.max(0, Number(b) || 0), stampDelayMs: Math.max(0, Number(text.trim().split(/\s+/)[3]) || 0) };
    default:
      return { kind: 'task' };
  }
}

/** Request text for a mode (the inverse of {@link parseAgentMode}). */
export function agentModeText(mode: AgentMode): string {
  switch (mode.kind) {
    case 'message':
    case 'task':
    case 'idle':
      return mode.kind;
    case 'stream':
      if (mode.stampDelayMs !== undefined) return `stamp ${mode.k} ${mode.pauseMs} ${mode.stampDelayMs}`;
      return mode.pauseMs > 0 ? `pause ${mode.k} ${mode.pauseMs}` : `stream ${mode.k}`;
  }
}

function clampInt(raw: string | undefined, fallback: number): number {
  const n = Number(raw);
  return Number.isInteger(n) && n >= 1 && n <= 100_000 ? n : fallback;
}

/** The text of chunk `i`: about 40 bytes, so a chunk event is about the size the baseline used. */
export function chunkText(i: number): string {
  return `chunk ${String(i).padStart(6, '0')} lorem ipsum dolor sit amet`;
}

/**
 * Wall-clock time in µs with sub-millisecond resolution, comparable between processes on one
 * machine (both read the same system clock through `performance.timeOrigin`).
 */
export function wallClockUs(): number {
  return Math.round((performance.timeOrigin + performance.now()) * 1000);
}

/** Chunk text of the `stamp` mode: the emit time, read back by {@link readStamp}. */
export function stampText(): string {
  return `stamp ${wallClockUs()} `;
}

/** The emit time (µs) a `stamp` chunk carries, or undefined. */
export function readStamp(text: string): number | undefined {
  const m = /stamp (\d{13,})/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** Text of the one artifact of `task` and of the `message` reply. */
export const RESULT_TEXT = 'benchmark result: the quick brown fox jumps over the lazy dog';

/** Resolves after `ms` (a timer, so the event loop really yields). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
