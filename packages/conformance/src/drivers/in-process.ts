import {
  A2AError,
  A2AErrorCode,
  callContext,
  decodeJsonRequest,
  operationByName,
  streamEventToJson,
  type EventStream,
  type RequestHandler,
} from '@a2a-polyglot/core';
import { AgentCard } from '@a2a-polyglot/model';
import {
  DEFAULT_HEADERS,
  failed,
  mergeHeaders,
  type Binding,
  type CallOptions,
  type CallResult,
  type Driver,
  type DriverStream,
  type OpenResult,
  type ProbeKind,
} from '../driver.js';

/**
 * The reference binding: no wire at all. It does what every binding must do and nothing
 * more (look the operation up in core's `OPERATIONS`, decode the request JSON strictly, call,
 * encode with the operation's own encoder), so any difference between it and a wire binding
 * is that binding's doing.
 */
export class InProcessDriver implements Driver {
  readonly binding = 'in-process';

  constructor(private readonly handler: RequestHandler) {}

  async call(operation: string, request: unknown, options?: CallOptions): Promise<CallResult> {
    try {
      const op = operationByName(operation);
      if (op.kind !== 'unary') throw new A2AError(A2AErrorCode.InvalidRequest, `${operation} is a streaming operation`);
      const decoded = decodeJsonRequest(op, request, { strict: this.handler.strictRequests });
      const res = await op.invoke(this.handler, decoded, this.context(options));
      return { ok: true, result: op.encodeJson(res, decoded) ?? null };
    } catch (error) {
      return failed(error);
    }
  }

  async open(operation: string, request: unknown, options?: CallOptions): Promise<OpenResult> {
    try {
      const op = operationByName(operation);
      if (op.kind !== 'stream') throw new A2AError(A2AErrorCode.InvalidRequest, `${operation} is not a streaming operation`);
      const decoded = decodeJsonRequest(op, request, { strict: this.handler.strictRequests });
      const stream = await op.open(this.handler, decoded, this.context(options), options?.resumeAfterSeq);
      return { ok: true, stream: wrap(stream) };
    } catch (error) {
      return failed(error);
    }
  }

  async probe(kind: ProbeKind): Promise<CallResult> {
    try {
      // The in-process "wire" is an operation name plus JSON text; probes break one of them.
      if (kind === 'unknown-method') operationByName('NoSuchOperation');
      if (kind === 'malformed-json') parseJsonText('{"message": {');
      throw new Error(`probe ${kind} unexpectedly succeeded`);
    } catch (error) {
      return failed(error);
    }
  }

  async agentCard(): Promise<CallResult> {
    return { ok: true, result: AgentCard.toJSON(this.handler.getAgentCard()) };
  }

  async close(): Promise<void> {}

  private context(options: CallOptions | undefined) {
    return callContext('IN-PROCESS', mergeHeaders({ ...DEFAULT_HEADERS }, options?.headers));
  }
}

/** JSON text → value, with a syntax error reported as the protocol's ParseError. */
function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new A2AError(A2AErrorCode.ParseError, `Invalid JSON: ${(error as Error).message}`);
  }
}

function wrap(stream: EventStream): DriverStream {
  return {
    close: () => stream.close(),
    async *[Symbol.asyncIterator]() {
      try {
        // seq 0 marks an unnumbered event (the message-only stream): nothing to resume from.
        for await (const { seq, event } of stream) yield { seq: seq > 0 ? seq : undefined, event: streamEventToJson(event) };
      } catch (error) {
        throw A2AError.from(error);
      }
    },
  };
}

/** The in-process binding: the handler itself, no server. */
export const inProcessBinding: Binding = {
  name: 'in-process',
  start: async (handler) => new InProcessDriver(handler),
};
