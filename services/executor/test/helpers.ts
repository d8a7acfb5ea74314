/** Shared test helpers: raw HTTP the way curl would send it, and a tiny SSE reader. */

export const V1 = { 'A2A-Version': '1.0' } as const;

/** A JSON body POSTed like `curl -H 'Content-Type: application/json' -d '...'`. */
export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', ...V1, ...headers }, body: JSON.stringify(body) });
}

/** The parsed JSON body, untyped: tests poke at wire shapes directly. */
export async function json(res: Response): Promise<any> {
  return res.json();
}

/** A JSON-RPC request envelope. */
export function rpc(method: string, params: unknown, id: number | string = 1): unknown {
  return { jsonrpc: '2.0', id, method, params };
}

/** A user text message in ProtoJSON. */
export function userMessage(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { messageId: crypto.randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...extra };
}

/** One SSE event: its `event:` name (default "message"), `id:` and parsed `data:` JSON. */
export interface SseEvent {
  readonly event: string;
  readonly id?: string;
  readonly data: any;
}

/**
 * Reads SSE events from a streaming response until the server closes it, or until `until`
 * returns true (then the connection is dropped). Bounded by `timeoutMs`.
 */
export async function readSse(res: Response, options: { until?: (e: SseEvent, all: SseEvent[]) => boolean; timeoutMs?: number } = {}): Promise<SseEvent[]> {
  if (!res.body) throw new Error('response has no body');
  const events: SseEvent[] = [];
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const timer = setTimeout(() => void reader.cancel(new Error('SSE read timed out')), options.timeoutMs ?? 10_000);
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, '\n');
      let blank: number;
      while ((blank = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, blank);
        buffer = buffer.slice(blank + 2);
        const lines = block.split('\n').filter((l) => l !== '' && !l.startsWith(':'));
        if (lines.length === 0) continue;
        const field = (name: string) => lines.filter((l) => l.startsWith(`${name}:`)).map((l) => l.slice(name.length + 1).replace(/^ /, ''));
        const data = field('data').join('\n');
        const event: SseEvent = { event: field('event')[0] ?? 'message', id: field('id')[0], data: data === '' ? undefined : JSON.parse(data) };
        events.push(event);
        if (options.until?.(event, events)) {
          await reader.cancel();
          return events;
        }
      }
    }
  } finally {
    clearTimeout(timer);
  }
  return events;
}

/** Polls `condition` until it holds; fails after `timeoutMs`. */
export async function waitFor(condition: () => boolean | Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The text of every text part, concatenated. */
export function partsText(parts: ReadonlyArray<{ text?: string }> | undefined): string {
  return (parts ?? []).map((p) => p.text ?? '').join('');
}

/**
 * Collects a client's event stream; `onEvent` may act (e.g. cancel) as events arrive. Bounded
 * by `timeoutMs`, so a stream that never ends fails the test instead of hanging it.
 */
export async function collect<T>(stream: AsyncIterable<T>, onEvent?: (e: T, all: T[]) => Promise<void> | void, timeoutMs = 10_000): Promise<T[]> {
  const events: T[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`stream not finished after ${timeoutMs} ms`)), timeoutMs)));
  try {
    await Promise.race([
      (async () => {
        for await (const e of stream) {
          events.push(e);
          await onEvent?.(e, events);
        }
      })(),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
  return events;
}
