/** Default stall timeout of the SSE streams (`stallTimeoutMs`): 30 s, like the WebSocket binding. */
export const DEFAULT_SSE_STALL_TIMEOUT_MS = 30_000;

/** Default heartbeat period of the SSE streams (`heartbeatMs`): a `: ping` after 15 to 30 s of silence. */
export const DEFAULT_SSE_HEARTBEAT_MS = 15_000;

/** The SSE response headers both bindings send (spec §3.5, a2a-js practice). */
export const SSE_HEADERS: Readonly<Record<string, string>> = {
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache',
  connection: 'keep-alive',
  'x-accel-buffering': 'no',
};

/**
 * One SSE event as text: `id:` and `event:` lines when given, then `data:`, then the blank
 * line. Data containing line breaks is split over several `data:` lines, as SSE requires
 * (one-line JSON, the usual case, is not scanned twice).
 */
export function sseFrame(data: string, id?: number | string, event?: string): string {
  let frame = id === undefined ? '' : `id: ${id}\n`;
  if (event !== undefined) frame += `event: ${event}\n`;
  if (data.indexOf('\n') < 0 && data.indexOf('\r') < 0) return `${frame}data: ${data}\n\n`;
  for (const line of data.split(/\r\n|\r|\n/)) frame += `data: ${line}\n`;
  return `${frame}\n`;
}
