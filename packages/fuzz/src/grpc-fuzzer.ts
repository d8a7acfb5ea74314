import { OPERATIONS as CORE_OPERATIONS } from '@a2a-polyglot/core';
import { SendMessageRequest as V03SendMessageRequest } from '@a2a-polyglot/model/v03';
import { grpcFrame, rawGrpcCall } from '@a2a-polyglot/testing';
import fc from 'fast-check';
import { gzipSync } from 'node:zlib';
import { OPERATIONS, validCall, versionHeader, withoutSlowCommand, type Operation } from './arbitraries.js';
import { headerSafe, type BindingFuzzer } from './binding-fuzzer.js';
import { heavyDialect, heavyParamsJson, heavyVersionHeaders, type HeavyCase } from './heavy-inputs.js';
import { abbreviate, leaks, oversizedAnswer, SLOW_ANSWER_MS, type Finding } from './oracle.js';

/** One gRPC call as raw HTTP/2: path, headers, the DATA bytes (frames, right or wrong). */
export interface GrpcInput {
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly data: Buffer;
  /** A heavy send (see `BindingFuzzer.heavy`). */
  readonly heavy?: boolean;
}

/** Encodes ProtoJSON params as the request message of `operation` (core's codec of each operation). */
function encodeRequest(operation: Operation, json: unknown): Uint8Array {
  const codec = CORE_OPERATIONS[operation].request;
  return codec.encode(codec.fromJSON(json)).finish();
}

/**
 * Deepest nesting a heavy gRPC case is built with: the message is made here by the generated
 * codec, which recurses per level in this (the server's own) process; past the documented
 * nesting limit the server must refuse it, and 200 levels are well past it.
 */
const MAX_GRPC_HEAVY_DEPTH = 200;

/** A heavy case as the request bytes of its generation's SendMessage. */
function heavyRequestBytes(c: HeavyCase): Buffer {
  const json: unknown = JSON.parse(heavyParamsJson({ ...c, depth: Math.min(c.depth, MAX_GRPC_HEAVY_DEPTH) }, heavyDialect(c, 'proto')));
  if (c.generation === '0.3') return Buffer.from(V03SendMessageRequest.encode(V03SendMessageRequest.fromJSON(json)).finish());
  return Buffer.from(encodeRequest('SendMessage', json));
}

/** The services a path may name: v1.0, v0.3, the session service, nonsense. */
const SERVICES = [
  'lf.a2a.v1.A2AService',
  'lf.a2a.v1.A2AService',
  'lf.a2a.v1.A2AService',
  'a2a.v1.A2AService',
  'lf.a2a.v1.A2ASessionService',
  'grpc.health.v1.Health',
  'nope.Service',
];

/** A valid message of a random operation, as bytes (`slow` defused in its text). */
function validMessage(known: readonly string[]): fc.Arbitrary<{ operation: Operation; bytes: Buffer }> {
  return validCall(known).map(({ operation, params }) => {
    let bytes: Uint8Array;
    try {
      bytes = encodeRequest(operation, JSON.parse(withoutSlowCommand(JSON.stringify(params))));
    } catch {
      bytes = new Uint8Array();
    }
    return { operation, bytes: Buffer.from(bytes) };
  });
}

/** The message bytes damaged: bytes flipped, cut short, extended. */
function damaged(bytes: fc.Arbitrary<Buffer>): fc.Arbitrary<Buffer> {
  return fc
    .tuple(
      bytes,
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { maxLength: 4 }),
      fc.nat(),
      fc.uint8Array({ maxLength: 16 }),
      fc.constantFrom('flip', 'cut', 'append'),
    )
    .map(([b, flips, cut, extra, how]) => {
      const out = Buffer.from(b);
      if (how === 'flip') for (const [at, value] of flips) if (out.length > 0) out[at % out.length] = value;
      if (how === 'cut') return out.subarray(0, out.length === 0 ? 0 : cut % out.length);
      if (how === 'append') return Buffer.concat([out, extra]);
      return out;
    });
}

/**
 * gRPC as raw HTTP/2 frames: valid and damaged messages, random bytes, compressed flags on
 * garbage (with and without `grpc-encoding`), lying length prefixes, several frames in one
 * call, bad `grpc-timeout`, every service and method name.
 */
export const grpcFuzzer: BindingFuzzer<GrpcInput> = {
  name: 'grpc',
  inputs(known) {
    const message = validMessage(known);
    const payload = fc.oneof(
      { weight: 2, arbitrary: message.map((m) => m.bytes) },
      { weight: 3, arbitrary: damaged(message.map((m) => m.bytes)) },
      { weight: 2, arbitrary: fc.uint8Array({ maxLength: 256 }).map((b) => Buffer.from(b)) },
    );
    const frame = fc.tuple(payload, fc.constantFrom('plain', 'plain', 'plain', 'flagged', 'gzip', 'lying-length')).map(([p, how]) => {
      if (how === 'flagged') return { data: grpcFrame(p, { compressed: true }), encoding: undefined };
      if (how === 'gzip') return { data: grpcFrame(gzipSync(p), { compressed: true }), encoding: 'gzip' };
      if (how === 'lying-length') return { data: grpcFrame(p, { declaredLength: p.length + 1 + (p[0] ?? 0) * 1000 }), encoding: undefined };
      return { data: grpcFrame(p), encoding: undefined };
    });
    const data = fc.oneof(
      { weight: 6, arbitrary: frame.map((f) => ({ data: f.data, encoding: f.encoding })) },
      {
        weight: 1,
        // minLength 2: the first frame is always there; `?.` only satisfies the index type.
        arbitrary: fc.array(frame, { minLength: 2, maxLength: 3 }).map((fs) => ({ data: Buffer.concat(fs.map((f) => f.data)), encoding: fs[0]?.encoding })),
      },
      { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((b) => ({ data: Buffer.from(b), encoding: undefined })) },
    );
    const method = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom<string>(...OPERATIONS, 'TaskSubscription', 'Check', 'Session') },
      { weight: 1, arbitrary: fc.string({ maxLength: 20 }) },
    );
    return fc
      .record({
        service: fc.constantFrom(...SERVICES),
        method,
        data,
        version: versionHeader(),
        encoding: fc.oneof(fc.constant(undefined), fc.constantFrom('gzip', 'deflate', 'identity', 'br', 'x')),
        timeout: fc.oneof(
          { weight: 5, arbitrary: fc.constant(undefined) },
          { weight: 1, arbitrary: fc.constantFrom('1S', '100m', '0n', 'garbage', '99999999H', '-1S', '') },
        ),
      })
      .map(({ service, method, data, version, encoding, timeout }) => ({
        path: `/${service}/${encodeURIComponent(method)}`,
        data: data.data,
        headers: {
          ...(version !== undefined && { 'a2a-version': headerSafe(version) }),
          ...grpcEncodingHeader(data.encoding ?? encoding),
          ...(timeout !== undefined && { 'grpc-timeout': timeout }),
        },
      }));
  },
  heavy(c) {
    const service = c.generation === '0.3' ? 'a2a.v1.A2AService' : 'lf.a2a.v1.A2AService';
    return {
      path: `/${service}/${c.streaming ? 'SendStreamingMessage' : 'SendMessage'}`,
      headers: heavyVersionHeaders(c),
      data: grpcFrame(heavyRequestBytes(c)),
      heavy: true,
    };
  },
  async run(input, target) {
    // A heavy request is quoted by its first bytes only: its megabytes hold no leak.
    const request = `${input.path} ${JSON.stringify(input.headers)} ${(input.heavy ? input.data.subarray(0, 1000) : input.data).toString('hex')}`;
    const finding = (kind: Finding['kind'], detail: string): Finding => ({ binding: 'grpc', kind, detail, input: abbreviate(request) });
    const started = performance.now();
    let answer: Awaited<ReturnType<typeof rawGrpcCall>>;
    try {
      answer = await rawGrpcCall(target.grpcUrl, input.path, input.data, input.headers, SLOW_ANSWER_MS + 2000);
    } catch (error) {
      return [finding('no-answer', (error as Error).message)];
    }
    const ms = performance.now() - started;
    const findings: Finding[] = [];
    if (answer.grpcStatus === 13 || answer.grpcStatus === 2) findings.push(finding('server-error', `gRPC status ${answer.grpcStatus}: ${answer.grpcMessage}`));
    if (answer.grpcStatus === undefined)
      findings.push(finding('no-answer', `no grpc-status (HTTP ${answer.httpStatus}, RST_STREAM ${answer.rstCode ?? 'none'})`));
    const text = `${answer.grpcMessage} ${answer.statusDetails?.toString('latin1') ?? ''} ${answer.body.toString('latin1')}`;
    // An error is judged by its status (message and details): a stream may end in one after
    // answering messages, and those are bounded by the heavy rule below.
    const status = Buffer.byteLength(answer.grpcMessage) + (answer.statusDetails?.length ?? 0);
    const failed = answer.grpcStatus !== undefined && answer.grpcStatus !== 0;
    const oversized =
      oversizedAnswer(status, failed) ?? (input.heavy ? oversizedAnswer(Buffer.byteLength(text, 'latin1'), false, input.data.length) : undefined);
    if (oversized) findings.push(finding('oversize', `${oversized} (gRPC status ${answer.grpcStatus}: ${abbreviate(answer.grpcMessage, 200)})`));
    const leaked = leaks(text, `${request} ${input.data.toString('latin1')}`);
    if (leaked.length > 0) findings.push(finding('leak', leaked.slice(0, 3).join(' | ')));
    if (ms > SLOW_ANSWER_MS) findings.push(finding('slow', `${Math.round(ms)} ms`));
    return findings;
  },
};

/** The `grpc-encoding` header when an encoding was drawn, else nothing (spread into the headers). */
function grpcEncodingHeader(encoding: string | undefined): { 'grpc-encoding'?: string } {
  return encoding === undefined ? {} : { 'grpc-encoding': encoding };
}
