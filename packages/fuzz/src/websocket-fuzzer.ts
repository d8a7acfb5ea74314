import fc from 'fast-check';
import WebSocket from 'ws';
import { garbageBody, mutated, mutatedCall, validCall, withoutSlowCommand } from './arbitraries.js';
import type { BindingFuzzer } from './binding-fuzzer.js';
import { heavyJsonRpcBody } from './heavy-inputs.js';
import { abbreviate, hasInternalJsonRpcError, isJsonRpcErrorText, leaks, oversizedAnswer, SLOW_ANSWER_MS, type Finding } from './oracle.js';
import type { FuzzTarget } from './target.js';

/** One client frame: text (JSON or not) or binary. */
export interface WebSocketInput {
  readonly frame: string | Buffer;
  /**
   * A heavy send (see `BindingFuzzer.heavy`): its request id, and whether it streams. It is
   * judged on everything received until its own last frame (its answer, its error or its
   * `streamEnd`), not until a sentinel, so no event of it spills into the next case.
   */
  readonly heavy?: { readonly id: string; readonly streaming: boolean };
}

/** Frames are judged on one socket per target, reopened whenever the server closed it. */
interface SocketState {
  readonly socket: WebSocket;
  readonly received: string[];
  closed?: number;
  /** Called on every frame received and on close (the current case's wait). */
  onChange?: () => void;
}
const sockets = new WeakMap<FuzzTarget, SocketState>();
let sentinels = 0;

async function openSocket(target: FuzzTarget): Promise<SocketState> {
  const held = sockets.get(target);
  if (held && held.closed === undefined && held.socket.readyState === WebSocket.OPEN) return held;
  const socket = new WebSocket(`${target.wsUrl}?A2A-Version=1.0`, 'a2a.v1');
  const state: SocketState = { socket, received: [] };
  socket.on('message', (data: Buffer) => {
    state.received.push(data.toString('utf8'));
    state.onChange?.();
  });
  socket.on('close', (code) => {
    state.closed = code;
    state.onChange?.();
  });
  socket.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  sockets.set(target, state);
  return state;
}

/**
 * WebSocket frames: JSON-RPC requests with valid-shaped or mutated params, the binding's own
 * members (`serviceParams`, `resumeAfterSeq`, `cancelStream`) right and wrong, random text and
 * binary frames. After each frame a sentinel request (GetTask of an unknown id) is sent; the
 * frame is judged on everything the socket received until the sentinel's answer.
 */
export const webSocketFuzzer: BindingFuzzer<WebSocketInput> = {
  name: 'websocket',
  inputs(known) {
    const request = fc
      .record(
        {
          jsonrpc: fc.constant('2.0'),
          id: fc.oneof(fc.nat(), fc.string({ maxLength: 10 })),
          call: validCall(known),
          serviceParams: fc.dictionary(fc.constantFrom('A2A-Version', 'A2A-Extensions', 'Authorization', 'Host', 'x'), fc.string({ maxLength: 10 }), {
            maxKeys: 3,
          }),
          resumeAfterSeq: fc.oneof(fc.nat(), fc.integer({ min: -5, max: -1 }), fc.string({ maxLength: 3 })),
        },
        { requiredKeys: ['jsonrpc', 'id', 'call'] },
      )
      .map(({ call, ...rest }) => ({ ...rest, method: call.operation, params: call.params }));
    const frame: fc.Arbitrary<string | Buffer> = fc.oneof(
      { weight: 2, arbitrary: request.map((r) => JSON.stringify(r)) },
      {
        weight: 3,
        arbitrary: fc
          .tuple(mutatedCall(known), fc.nat())
          .map(([call, id]) => JSON.stringify({ jsonrpc: '2.0', id, method: call.operation, params: call.params })),
      },
      { weight: 1, arbitrary: mutated(request).map((r) => JSON.stringify(r) ?? 'null') },
      {
        weight: 1,
        arbitrary: fc
          .record({ jsonrpc: fc.constant('2.0'), id: fc.oneof(fc.nat(), fc.string()), cancelStream: fc.jsonValue({ maxDepth: 1 }) })
          .map((r) => JSON.stringify(r)),
      },
      { weight: 2, arbitrary: garbageBody().map((b) => (typeof b === 'string' ? b : Buffer.from(b))) },
    );
    return frame.map((f) => ({ frame: typeof f === 'string' ? withoutSlowCommand(f) : f }));
  },
  heavy(c) {
    // WebSocket is a v1.0 binding only: a v0.3 case is sent as its v1.0 twin.
    const id = `heavy-${c.salt}`;
    return { frame: heavyJsonRpcBody({ ...c, generation: '1.0' }, id), heavy: { id, streaming: c.streaming } };
  },
  async run(input, target) {
    const full = typeof input.frame === 'string' ? input.frame : input.frame.toString('latin1');
    // A heavy request is quoted by its first bytes only: its megabytes hold no leak.
    const text = input.heavy ? full.slice(0, 2000) : full;
    const finding = (kind: Finding['kind'], detail: string): Finding => ({ binding: 'websocket', kind, detail, input: abbreviate(text) });
    let state: Awaited<ReturnType<typeof openSocket>>;
    try {
      state = await openSocket(target);
    } catch (error) {
      return [finding('no-answer', `cannot open a WebSocket: ${(error as Error).message}`)];
    }
    const sentinel = `fuzz-sentinel-${++sentinels}`;
    const started = performance.now();
    state.socket.send(input.frame, { binary: typeof input.frame !== 'string' });
    if (!input.heavy) state.socket.send(JSON.stringify({ jsonrpc: '2.0', id: sentinel, method: 'GetTask', params: { id: 'fuzz-sentinel' } }));
    const answered = () =>
      state.closed !== undefined || state.received.some((m) => (input.heavy ? isLastFrameOf(m, input.heavy) : m.includes(`"${sentinel}"`)));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, SLOW_ANSWER_MS + 2000);
      state.onChange = () => {
        if (!answered()) return;
        clearTimeout(timer);
        resolve();
      };
      state.onChange();
    });
    state.onChange = undefined;
    const ms = performance.now() - started;
    const gotAnswer = answered();
    const frames = state.received.splice(0);
    const received = frames.join('\n');
    const findings: Finding[] = [];
    for (const frame of frames) {
      const oversized = oversizedAnswer(Buffer.byteLength(frame), isJsonRpcErrorText(frame));
      if (oversized) findings.push(finding('oversize', `${oversized}: ${abbreviate(frame.slice(0, 400), 200)}`));
    }
    if (input.heavy) {
      const oversized = oversizedAnswer(Buffer.byteLength(received), false, Buffer.byteLength(full));
      if (oversized) findings.push(finding('oversize', oversized));
    }
    if (hasInternalJsonRpcError(received)) findings.push(finding('server-error', `JSON-RPC -32603: ${abbreviate(received, 200)}`));
    if (state.closed === 1011 || state.closed === 1006) findings.push(finding('server-error', `socket closed with ${state.closed}`));
    const leaked = leaks(received, text);
    if (leaked.length > 0) findings.push(finding('leak', leaked.slice(0, 3).join(' | ')));
    if (!gotAnswer) findings.push(finding('no-answer', `no answer to the sentinel request within ${SLOW_ANSWER_MS + 2000} ms`));
    else if (ms > SLOW_ANSWER_MS) findings.push(finding('slow', `${Math.round(ms)} ms`));
    return findings;
  },
};

/** True when `frame` is the last one a heavy request gets: its error, its answer, or its stream's end. */
function isLastFrameOf(frame: string, heavy: NonNullable<WebSocketInput['heavy']>): boolean {
  const head = frame.slice(0, 200);
  if (!head.includes(`"${heavy.id}"`)) return false;
  if (isJsonRpcErrorText(frame)) return true;
  return heavy.streaming ? head.includes('"streamEnd"') : !head.includes('"streamStart"');
}

/** Closes the socket a target's WebSocket fuzzing holds. */
export function closeFuzzSocket(target: FuzzTarget): void {
  sockets.get(target)?.socket.close();
  sockets.delete(target);
}
