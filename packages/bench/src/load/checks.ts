import type { CheckSpec } from './job.js';

type ModelModule = typeof import('@a2a-polyglot/model');

/** What one completed operation looked like, for {@link checkOutcome}. */
export interface Observed {
  /** Unary: the response body (JSON text, or the protobuf message for gRPC). */
  readonly body?: Buffer;
  /** Streams: the first and last event (SSE data block text, or protobuf message). */
  readonly first?: Buffer | string;
  readonly last?: Buffer | string;
  readonly events: number;
}

/**
 * Checks that a benchmark really measured what it claims: a Message reply, a completed Task,
 * or a whole stream ending in COMPLETED with the expected number of events. Returns 'ok' or
 * a one-line description of the difference (reported, never thrown: numbers are still shown).
 */
export function checkOutcome(spec: CheckSpec, seen: Observed): string {
  try {
    if (spec.kind === 'raw') return spec.events !== undefined && seen.events !== spec.events ? `expected ${spec.events} events, got ${seen.events}` : 'ok';
    if (spec.kind === 'grpc-session') seen = sessionPayloads(seen);
    if (spec.expect === 'stream') return checkStream(spec, seen);
    const result = spec.kind === 'grpc-a2a' || spec.kind === 'grpc-session' ? decodeGrpcResponse(seen.body) : unaryJson(spec, seen.body);
    return checkResult(spec.expect, result);
  } catch (error) {
    return `unreadable response: ${(error as Error).message}`;
  }
}

function unaryJson(spec: CheckSpec, body: Buffer | undefined): unknown {
  const json = JSON.parse((body ?? Buffer.alloc(0)).toString('utf8')) as Record<string, unknown>;
  if (spec.kind === 'jsonrpc') {
    if (json.error) throw new Error(`JSON-RPC error ${JSON.stringify(json.error).slice(0, 200)}`);
    return json.result;
  }
  return json;
}

function decodeGrpcResponse(body: Buffer | undefined): unknown {
  const model = require('@a2a-polyglot/model') as ModelModule;
  const decoded = model.SendMessageResponse.decode(body ?? Buffer.alloc(0));
  return model.SendMessageResponse.toJSON(decoded);
}

/**
 * Unwraps session frames into what the standard gRPC binding would have sent: the
 * SendMessageResponse of a `result.send` frame, the StreamResponse of an `event` frame.
 */
function sessionPayloads(seen: Observed): Observed {
  const model = require('@a2a-polyglot/model') as ModelModule;
  const session = require('@a2a-polyglot/model/session') as typeof import('@a2a-polyglot/model/session');
  const unwrap = (frame: Buffer | string | undefined): Buffer | undefined => {
    if (frame === undefined || typeof frame === 'string') return undefined;
    const decoded = session.SessionResponse.decode(frame).frame;
    if (decoded?.$case === 'event' && decoded.value.event) return Buffer.from(model.StreamResponse.encode(decoded.value.event).finish());
    if (decoded?.$case === 'result' && decoded.value.result?.$case === 'send')
      return Buffer.from(model.SendMessageResponse.encode(decoded.value.result.value).finish());
    throw new Error(
      `unexpected session frame ${JSON.stringify(decoded && session.SessionResponse.toJSON({ correlationId: '', frame: decoded })).slice(0, 160)}`,
    );
  };
  return { body: unwrap(seen.body), first: unwrap(seen.first), last: unwrap(seen.last), events: seen.events };
}

function checkResult(expect: 'message' | 'task', result: unknown): string {
  const r = (result ?? {}) as { message?: unknown; task?: { status?: { state?: unknown } } };
  if (expect === 'message') return r.message ? 'ok' : `expected a Message, got ${short(result)}`;
  const state = r.task?.status?.state;
  return state === 'TASK_STATE_COMPLETED' ? 'ok' : `expected a completed Task, got ${short(result)}`;
}

function checkStream(spec: CheckSpec, seen: Observed): string {
  const problems: string[] = [];
  if (spec.events !== undefined && seen.events !== spec.events) problems.push(`expected ${spec.events} events, got ${seen.events}`);
  const last = seen.last === undefined ? '' : typeof seen.last === 'string' ? seen.last : streamEventText(seen.last);
  if (!last.includes('TASK_STATE_COMPLETED')) problems.push(`last event is not COMPLETED: ${last.slice(0, 160)}`);
  return problems.length === 0 ? 'ok' : problems.join('; ');
}

function streamEventText(message: Buffer): string {
  const model = require('@a2a-polyglot/model') as ModelModule;
  return JSON.stringify(model.StreamResponse.toJSON(model.StreamResponse.decode(message)));
}

function short(value: unknown): string {
  return (JSON.stringify(value) ?? String(value)).slice(0, 160);
}
