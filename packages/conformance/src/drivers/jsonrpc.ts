import { DEFAULT_HEADERS, failed, mergeHeaders, opened, type Binding, type CallOptions, type CallResult, type OpenResult, type ProbeKind } from '../driver.js';
import type { SseEvent } from '../sse.js';
import { fetchAgentCard, mediaTypeOf, parseData, readJson, seqOf, sseDriverStream, wireViolation } from './http-common.js';
import { HttpDriver, startHttpDriver } from './http-driver.js';
import { envelopeAnswer, envelopeEvent } from './jsonrpc-envelope.js';

/**
 * What differs between the JSON-RPC method generations on the same endpoint: method names,
 * params and results, default headers, and how a pre-stream failure arrives. The v1.0 dialect
 * passes everything through; the v0.3 one (drivers/jsonrpc-v03.ts) translates with the v0.3
 * codec, so both run the same scenarios and are compared on the same v1.0 JSON.
 */
export interface JsonRpcDialect {
  readonly binding: string;
  /** Headers every call carries (v1.0: `A2A-Version: 1.0`; v0.3: none). */
  readonly defaultHeaders: Readonly<Record<string, string>>;
  /** The method name and params of an operation's v1.0 request JSON. */
  request(operation: string, request: unknown): { readonly method: string; readonly params: unknown };
  /** A result (or stream event) of `operation` as v1.0 JSON. */
  result(operation: string, result: unknown): unknown;
  /** Per-call header overrides in this generation's names. */
  headers(overrides: CallOptions['headers']): CallOptions['headers'];
  /**
   * True when a failure before the stream opened arrives as the stream's first event (v0.3
   * clients read streaming answers as SSE only) rather than as a plain JSON answer.
   */
  readonly preStreamErrorsAsEvents: boolean;
  /** Agent card discovery as a client of this generation does it. */
  agentCard(cardUrl: string, endpoint: string, transport: typeof fetch): Promise<CallResult>;
}

/** A2A v1.0: PascalCase methods, params and results as ProtoJSON, `A2A-Version: 1.0`. */
export const V1_DIALECT: JsonRpcDialect = {
  binding: 'jsonrpc',
  defaultHeaders: DEFAULT_HEADERS,
  request: (method, params) => ({ method, params }),
  result: (_operation, result) => result,
  headers: (overrides) => overrides,
  preStreamErrorsAsEvents: false,
  agentCard: (cardUrl, _endpoint, transport) => fetchAgentCard(cardUrl, undefined, transport),
};

/**
 * The JSON-RPC 2.0 over HTTP driver, written from the spec alone (§3.3, §3.5): POST an
 * envelope to the endpoint; unary answers are a JSON-RPC response with `result` or `error`;
 * streaming answers are SSE whose `data:` is a JSON-RPC response carrying a StreamResponse
 * and whose `id:` is the event seq; pre-stream errors come back as plain JSON. Errors are
 * read back through the ErrorInfo reason (core `fromJsonRpcError`).
 */
export class JsonRpcDriver extends HttpDriver {
  readonly binding: string;
  private nextId = 1;

  /**
   * @param endpoint the JSON-RPC URL (`AgentInterface.url` of the JSONRPC interface)
   * @param cardUrl the agent card URL
   * @param onClose stops the server under test
   * @param dialect the method generation to speak (default v1.0)
   */
  constructor(
    endpoint: string,
    cardUrl: string,
    onClose?: () => Promise<void>,
    private readonly dialect: JsonRpcDialect = V1_DIALECT,
  ) {
    super(endpoint, cardUrl, onClose);
    this.binding = dialect.binding;
  }

  async call(operation: string, request: unknown, options?: CallOptions): Promise<CallResult> {
    try {
      const id = this.nextId++;
      const { method, params } = this.dialect.request(operation, request);
      const res = await this.post(JSON.stringify({ jsonrpc: '2.0', id, method, params }), options);
      const answer = await unaryAnswer(res, id);
      return answer.ok ? { ok: true, result: this.dialect.result(operation, answer.result) } : answer;
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
      const { method, params } = this.dialect.request(operation, request);
      const res = await this.post(JSON.stringify({ jsonrpc: '2.0', id, method, params }), { headers: { ...extra, ...options?.headers } }, controller.signal);
      if (mediaTypeOf(res) !== 'text/event-stream') {
        if (this.dialect.preStreamErrorsAsEvents) return wireViolation(`${method} answered ${res.headers.get('content-type')} instead of an event stream`);
        const answer = await unaryAnswer(res, id);
        return answer.ok ? wireViolation(`${operation} answered a plain result instead of an event stream`) : answer;
      }
      const stream = sseDriverStream(res, controller, (event) => {
        const item = streamItem(event, id);
        return { seq: item.seq, event: this.dialect.result(operation, item.event) };
      });
      // A resumed stream may rightly stay silent until the task moves on, so it is not peeked at.
      const peek = this.dialect.preStreamErrorsAsEvents && options?.resumeAfterSeq === undefined;
      return peek ? await opened(stream) : { ok: true, stream };
    } catch (error) {
      controller.abort();
      return failed(error);
    }
  }

  async probe(kind: ProbeKind): Promise<CallResult> {
    try {
      if (kind === 'unknown-method') return await this.call('NoSuchMethod', {});
      const { method } = this.dialect.request('SendMessage', {});
      const res = await this.post(`{"jsonrpc":"2.0","id":1,"method":${JSON.stringify(method)},"params":{`, undefined);
      return await unaryAnswer(res, null);
    } catch (error) {
      return failed(error);
    }
  }

  override agentCard(): Promise<CallResult> {
    return this.dialect.agentCard(this.cardUrl, this.baseUrl, this.transport);
  }

  private post(body: string, options: CallOptions | undefined, signal?: AbortSignal): Promise<Response> {
    const headers = mergeHeaders({ ...this.dialect.defaultHeaders, 'Content-Type': 'application/json' }, this.dialect.headers(options?.headers));
    return this.transport(this.baseUrl, { method: 'POST', headers, body, signal });
  }
}

/** Reads a unary JSON-RPC answer and checks its envelope: `jsonrpc`, the echoed id, result xor error. */
async function unaryAnswer(res: Response, id: number | null): Promise<CallResult> {
  const body = await readJson(res);
  if ('invalid' in body) return wireViolation(body.invalid);
  if (mediaTypeOf(res) !== 'application/json') return wireViolation(`content-type ${res.headers.get('content-type')} is not application/json`);
  return envelopeAnswer(body.json, id);
}

/** One SSE event of a JSON-RPC stream: a whole response with the request's id. */
function streamItem(event: SseEvent, id: number): { seq: number | undefined; event: unknown } {
  return { seq: seqOf(event), event: envelopeEvent(parseData(event), id, 'stream event').result };
}

/** The JSON-RPC binding: a fresh `@a2a-polyglot/server`, JSON-RPC at `${url}/a2a/rpc`. */
export const jsonRpcBinding: Binding = {
  name: 'jsonrpc',
  start: (handler) => startHttpDriver(handler, (baseUrl, cardUrl, close) => new JsonRpcDriver(`${baseUrl}/rpc`, cardUrl, close)),
};

/** The same driver against the fetch-standard handler (`createA2AFetchHandler`), in process. */
export const jsonRpcFetchBinding: Binding = {
  name: 'jsonrpc-fetch',
  start: (handler) => startHttpDriver(handler, (baseUrl, cardUrl, close) => new JsonRpcDriver(`${baseUrl}/rpc`, cardUrl, close), 'fetch'),
};

/** The same driver against the AWS Lambda response-streaming handler, in process. */
export const jsonRpcLambdaBinding: Binding = {
  name: 'jsonrpc-lambda',
  start: (handler) => startHttpDriver(handler, (baseUrl, cardUrl, close) => new JsonRpcDriver(`${baseUrl}/rpc`, cardUrl, close), 'lambda'),
};
