import { fromJsonRpcError } from '@a2a-polyglot/core';
import { DEFAULT_HEADERS, DriverFailure, failed, mergeHeaders, toDriverError, type Binding, type CallOptions, type CallResult, type Driver, type OpenResult, type ProbeKind } from '../driver.js';
import type { SseEvent } from '../sse.js';
import { fetchAgentCard, mediaTypeOf, parseData, readJson, seqOf, sseDriverStream, startServerUnderTest, WIRE_VIOLATION, wireViolation } from './http-common.js';

type Envelope = Record<string, unknown>;

/**
 * The JSON-RPC 2.0 over HTTP driver, written from the spec alone (§3.3, §3.5): POST an
 * envelope to the endpoint; unary answers are a JSON-RPC response with `result` or `error`;
 * streaming answers are SSE whose `data:` is a JSON-RPC response carrying a StreamResponse
 * and whose `id:` is the event seq; pre-stream errors come back as plain JSON. Errors are
 * read back through the ErrorInfo reason (core `fromJsonRpcError`).
 */
export class JsonRpcDriver implements Driver {
  readonly binding = 'jsonrpc';
  private nextId = 1;

  /**
   * @param endpoint the JSON-RPC URL (`AgentInterface.url` of the JSONRPC interface)
   * @param cardUrl the agent card URL
   * @param onClose stops the server under test
   */
  constructor(
    private readonly endpoint: string,
    private readonly cardUrl: string,
    private readonly onClose: () => Promise<void> = async () => undefined,
  ) {}

  async call(operation: string, request: unknown, options?: CallOptions): Promise<CallResult> {
    try {
      const id = this.nextId++;
      const res = await this.post(JSON.stringify({ jsonrpc: '2.0', id, method: operation, params: request }), options);
      return await unaryAnswer(res, id);
    } catch (error) {
      return failed(error);
    }
  }

  async open(operation: string, request: unknown, options?: CallOptions): Promise<OpenResult> {
    const controller = new AbortController();
    try {
      const id = this.nextId++;
      const extra: Record<string, string | null> = { Accept: 'text/event-stream' };
      if (options?.resumeAfterSeq !== undefined) extra['Last-Event-ID'] = String(options.resumeAfterSeq);
      const body = JSON.stringify({ jsonrpc: '2.0', id, method: operation, params: request });
      const res = await this.post(body, { headers: { ...extra, ...options?.headers } }, controller.signal);
      if (mediaTypeOf(res) !== 'text/event-stream') {
        const answer = await unaryAnswer(res, id);
        return answer.ok ? wireViolation(`${operation} answered a plain result instead of an event stream`) : answer;
      }
      return { ok: true, stream: sseDriverStream(res, controller, (event) => streamItem(event, id)) };
    } catch (error) {
      controller.abort();
      return failed(error);
    }
  }

  async probe(kind: ProbeKind): Promise<CallResult> {
    try {
      if (kind === 'unknown-method') return await this.call('NoSuchMethod', {});
      const res = await this.post('{"jsonrpc":"2.0","id":1,"method":"SendMessage","params":{', undefined);
      return await unaryAnswer(res, null);
    } catch (error) {
      return failed(error);
    }
  }

  agentCard(): Promise<CallResult> {
    return fetchAgentCard(this.cardUrl);
  }

  close(): Promise<void> {
    return this.onClose();
  }

  private post(body: string, options: CallOptions | undefined, signal?: AbortSignal): Promise<Response> {
    const headers = mergeHeaders({ ...DEFAULT_HEADERS, 'Content-Type': 'application/json' }, options?.headers);
    return fetch(this.endpoint, { method: 'POST', headers, body, signal });
  }
}

/** Reads a unary JSON-RPC answer and checks its envelope: `jsonrpc`, the echoed id, result xor error. */
async function unaryAnswer(res: Response, id: number | null): Promise<CallResult> {
  const body = await readJson(res);
  if ('invalid' in body) return wireViolation(body.invalid);
  if (mediaTypeOf(res) !== 'application/json') return wireViolation(`content-type ${res.headers.get('content-type')} is not application/json`);
  const envelope = body.json as Envelope | undefined;
  const problem = envelopeProblem(envelope, id);
  if (problem) return wireViolation(problem);
  if ('error' in envelope!) return { ok: false, error: toDriverError(fromJsonRpcError(envelope.error as Envelope)) };
  return { ok: true, result: envelope!['result'] };
}

/** One SSE event of a JSON-RPC stream: a whole response with the request's id. */
function streamItem(event: SseEvent, id: number): { seq: number | undefined; event: unknown } {
  const envelope = parseData(event) as Envelope;
  const problem = envelopeProblem(envelope, id);
  if (problem) throw new DriverFailure(WIRE_VIOLATION, `stream event: ${problem}`);
  if ('error' in envelope) throw fromJsonRpcError(envelope['error'] as Envelope);
  return { seq: seqOf(event), event: envelope['result'] };
}

/** What is wrong with a JSON-RPC response envelope, if anything. `id` null: any id is fine for an error. */
function envelopeProblem(envelope: Envelope | undefined, id: number | null): string | undefined {
  if (typeof envelope !== 'object' || envelope === null || Array.isArray(envelope)) return 'the answer is not a JSON-RPC response object';
  if (envelope['jsonrpc'] !== '2.0') return 'jsonrpc member is not "2.0"';
  const hasResult = 'result' in envelope;
  const hasError = 'error' in envelope;
  if (hasResult === hasError) return 'a response needs exactly one of result and error';
  if (id !== null && envelope['id'] !== id && !(hasError && envelope['id'] === null)) return `response id ${JSON.stringify(envelope['id'])} does not echo request id ${id}`;
  return undefined;
}

/** The JSON-RPC binding: a fresh `@a2a-polyglot/server`, JSON-RPC at `${url}/a2a/rpc`. */
export const jsonRpcBinding: Binding = {
  name: 'jsonrpc',
  async start(handler) {
    const server = await startServerUnderTest(handler);
    return new JsonRpcDriver(`${server.url}${server.basePath}/rpc`, `${server.url}/.well-known/agent-card.json`, () => server.close());
  },
};
