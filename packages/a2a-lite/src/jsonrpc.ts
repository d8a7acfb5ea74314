import { readSse, SseError } from '@a2a-polyglot/sse';

/** A JSON-RPC error answer (or a transport failure) of an A2A call, in one line. */
export class LiteRpcError extends Error {
  constructor(
    message: string,
    /** The JSON-RPC error code, when the server answered with one. */
    readonly code?: number,
  ) {
    super(message);
    this.name = 'LiteRpcError';
  }
}

/** How calls are made: the transport, extra headers (credentials), an abort signal. */
export interface RpcOptions {
  readonly fetch: typeof fetch;
  readonly headers?: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

let nextId = 1;

function post(url: string, method: string, params: unknown, options: RpcOptions, stream: boolean): Promise<Response> {
  return options.fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...(stream && { accept: 'text/event-stream' }), ...options.headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    signal: options.signal,
  });
}

function resultOf(envelope: unknown): unknown {
  if (typeof envelope !== 'object' || envelope === null) throw new LiteRpcError('The agent answered with something that is not JSON-RPC');
  const e = envelope as { result?: unknown; error?: { code?: number; message?: string } };
  if (e.error) throw new LiteRpcError(`The agent answered with error ${e.error.code ?? '?'}: ${e.error.message ?? 'no message'}`, e.error.code);
  if (!('result' in e)) throw new LiteRpcError('The agent answered with a JSON-RPC envelope without result');
  return e.result;
}

async function readJson(res: Response): Promise<unknown> {
  const text = await res.text();
  try {
    return JSON.parse(text);
  } catch {
    throw new LiteRpcError(`The agent answered HTTP ${res.status} with a body that is not JSON`);
  }
}

/** One A2A JSON-RPC call (plain fetch): the `result`, or a {@link LiteRpcError}. */
export async function rpcCall(url: string, method: string, params: unknown, options: RpcOptions): Promise<unknown> {
  return resultOf(await readJson(await post(url, method, params, options, false)));
}

/**
 * A streaming A2A JSON-RPC call: yields each event's `result` (a StreamResponse) from the
 * SSE answer (read by `@a2a-polyglot/sse`, the parser the client uses too). A plain JSON
 * answer (a pre-stream error, or a server that does not stream) is yielded once or thrown.
 */
export async function* rpcStream(url: string, method: string, params: unknown, options: RpcOptions): AsyncGenerator<unknown> {
  const res = await post(url, method, params, options, true);
  if (!(res.headers.get('content-type') ?? '').startsWith('text/event-stream') || !res.body) {
    yield resultOf(await readJson(res));
    return;
  }
  try {
    for await (const message of readSse(res.body)) {
      if (message.data === '') continue;
      let envelope: unknown;
      try {
        envelope = JSON.parse(message.data);
      } catch {
        throw new LiteRpcError('The agent sent a stream event that is not JSON');
      }
      yield resultOf(envelope);
    }
  } catch (error) {
    if (error instanceof SseError) throw new LiteRpcError(`The agent sent a broken event stream: ${error.message}`);
    throw error;
  }
}
