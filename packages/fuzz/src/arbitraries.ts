/**
 * The inputs every binding's fuzzer draws from: the A2A operations with valid-shaped
 * parameters (ProtoJSON, as JSON-RPC, REST and WebSocket carry them and as gRPC encodes them),
 * those parameters with one value replaced or removed ("valid-shaped but wrong"), and random
 * JSON, text and bytes.
 */
import { OPERATIONS as CORE_OPERATIONS, type OperationName } from '@a2a-polyglot/core';
import fc from 'fast-check';

/** The v1.0 operations (JSON-RPC and gRPC method names): core's table of them. */
export const OPERATIONS = Object.keys(CORE_OPERATIONS) as OperationName[];
export type Operation = OperationName;

/** The A2A v0.3 JSON-RPC methods the server also serves. */
export const V03_METHODS = [
  'message/send',
  'message/stream',
  'tasks/get',
  'tasks/cancel',
  'tasks/resubscribe',
  'tasks/pushNotificationConfig/set',
  'tasks/pushNotificationConfig/get',
  'agent/getAuthenticatedExtendedCard',
] as const;

/**
 * The demo agent's `slow` command streams for ~20 s, which would read as a slow answer: every
 * input is passed through this before it is sent (`slow` becomes `sl0w`).
 */
export function withoutSlowCommand(text: string): string {
  return text.replace(/slow/gi, 'sl0w');
}

/** Strings of every kind: short, long, unicode, the demo agent's commands. */
export function anyText(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.constantFrom('hello', 'ask', 'fail', '', ' ', 'ask me', '\u0000', '💥'.repeat(10)) },
    { weight: 1, arbitrary: fc.string({ minLength: 1000, maxLength: 20_000 }) },
  );
}

/** Task, context and config ids: ones the server knows (`known`), well-formed unknown ones, anything. */
export function anyId(known: readonly string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: known.length > 0 ? 3 : 0, arbitrary: known.length > 0 ? fc.constantFrom(...known) : fc.constant('') },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
    { weight: 1, arbitrary: fc.constantFrom('', '..', '../..', '%00', 'a/b', '?x=1', '#', ' ', '\u202e', 'x'.repeat(5000)) },
  );
}

/** A user message, ProtoJSON (v1.0). */
function message(known: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  return fc.record(
    {
      messageId: fc.uuid(),
      role: fc.constantFrom('ROLE_USER', 'ROLE_AGENT', 'ROLE_UNSPECIFIED'),
      parts: fc.array(
        fc.oneof(
          fc.record({ text: anyText() }),
          fc.record({ data: fc.jsonValue({ maxDepth: 3 }) }),
          fc.record({ url: fc.webUrl(), mediaType: fc.constantFrom('text/plain', 'image/png', '') }),
          fc.record({ raw: fc.base64String({ maxLength: 64 }), filename: fc.string({ maxLength: 10 }) }),
        ),
        { minLength: 1, maxLength: 3 },
      ),
      contextId: anyId(known),
      taskId: anyId(known),
      metadata: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    },
    { requiredKeys: ['messageId', 'role', 'parts'] },
  );
}

/** Valid-shaped ProtoJSON parameters of `operation`. */
export function validParams(operation: Operation, known: readonly string[]): fc.Arbitrary<Record<string, unknown>> {
  const id = anyId(known);
  const historyLength = fc.oneof(fc.integer({ min: -5, max: 200 }), fc.constant(undefined));
  switch (operation) {
    case 'SendMessage':
    case 'SendStreamingMessage':
      return fc.record(
        {
          message: message(known),
          configuration: fc.record(
            {
              acceptedOutputModes: fc.oneof(
                { weight: 4, arbitrary: fc.constantFrom([], ['text/plain']) },
                { weight: 1, arbitrary: fc.array(fc.constantFrom('text/plain', 'application/json', '*/*', 'x/y'), { maxLength: 3 }) },
              ),
              historyLength,
              returnImmediately: fc.boolean(),
            },
            { requiredKeys: [] },
          ),
          metadata: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
        },
        { requiredKeys: ['message'] },
      );
    case 'GetTask':
      return fc.record({ id, historyLength }, { requiredKeys: ['id'] });
    case 'ListTasks':
      return fc.record(
        {
          contextId: id,
          status: fc.constantFrom('TASK_STATE_COMPLETED', 'TASK_STATE_WORKING', 'TASK_STATE_INPUT_REQUIRED', 'TASK_STATE_NOPE', 7),
          pageSize: fc.integer({ min: -10, max: 1000 }),
          pageToken: fc.oneof(fc.string({ maxLength: 40 }), fc.base64String({ maxLength: 40 })),
          historyLength,
          includeArtifacts: fc.boolean(),
          statusTimestampAfter: fc.oneof(
            fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
            fc.string({ maxLength: 30 }),
          ),
        },
        { requiredKeys: [] },
      );
    case 'CancelTask':
    case 'SubscribeToTask':
      return fc.record({ id }, { requiredKeys: ['id'] });
    case 'CreateTaskPushNotificationConfig':
      return fc.record(
        { taskId: id, id, url: fc.oneof(fc.webUrl(), fc.string({ maxLength: 30 })), token: fc.string({ maxLength: 20 }) },
        { requiredKeys: ['taskId', 'url'] },
      );
    case 'GetTaskPushNotificationConfig':
    case 'DeleteTaskPushNotificationConfig':
      return fc.record({ taskId: id, id }, { requiredKeys: ['taskId', 'id'] });
    case 'ListTaskPushNotificationConfigs':
      return fc.record({ taskId: id, pageSize: fc.integer({ min: -1, max: 500 }), pageToken: fc.string({ maxLength: 20 }) }, { requiredKeys: ['taskId'] });
    case 'GetExtendedAgentCard':
      return fc.constant({});
  }
}

/** One valid-shaped operation call: the operation and its parameters. */
export function validCall(known: readonly string[]): fc.Arbitrary<{ operation: Operation; params: Record<string, unknown> }> {
  return fc.constantFrom(...OPERATIONS).chain((operation) => validParams(operation, known).map((params) => ({ operation, params })));
}

/** A valid-shaped call whose params have one value replaced or removed (see {@link mutated}). */
export function mutatedCall(known: readonly string[]): fc.Arbitrary<{ operation: Operation; params: unknown }> {
  return validCall(known).chain(({ operation, params }) => mutated(fc.constant(params)).map((wrong) => ({ operation, params: wrong })));
}

/**
 * `valid` with one value somewhere inside replaced by arbitrary JSON (wrong type, out of
 * range, nested garbage) or removed: the inputs that get past a parser and test validation.
 */
export function mutated<T>(valid: fc.Arbitrary<T>): fc.Arbitrary<unknown> {
  return fc.tuple(valid, fc.nat(), fc.constantFrom('replace', 'remove'), fc.jsonValue({ maxDepth: 3 })).map(([value, pick, how, replacement]) => {
    const copy = structuredClone(value) as unknown;
    const paths = containerPaths(copy);
    const chosen = paths[pick % paths.length];
    if (!chosen) return replacement; // no container to mutate inside
    const [container, key] = chosen;
    if (how === 'remove') {
      if (Array.isArray(container)) container.splice(Number(key), 1);
      else delete (container as Record<string, unknown>)[key];
    } else {
      (container as Record<string, unknown>)[key] = replacement;
    }
    return copy;
  });
}

/** Every (container, key) pair inside `value`, depth first. */
function containerPaths(value: unknown, out: Array<[object, string]> = []): Array<[object, string]> {
  if (typeof value !== 'object' || value === null) return out;
  for (const key of Object.keys(value)) {
    out.push([value, key]);
    containerPaths((value as Record<string, unknown>)[key], out);
  }
  return out;
}

/** Random JSON documents, text and bytes: what a parser must survive. */
export function garbageBody(): fc.Arbitrary<string | Uint8Array> {
  return fc.oneof(
    fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v) ?? 'null'),
    fc.string({ maxLength: 200 }),
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.uint8Array({ maxLength: 512 }),
    fc.constantFrom('', '{', '[', '{"jsonrpc":"2.0"', '{}', '[]', 'null', '"x"', '{"a":'.repeat(500), '['.repeat(10_000)),
  );
}

/** Values for the `A2A-Version` header (absent included). */
export function versionHeader(): fc.Arbitrary<string | undefined> {
  // Mostly 1.0, so most inputs reach the operations; every other answer path is drawn too.
  return fc.oneof(
    { weight: 8, arbitrary: fc.constant('1.0') },
    { weight: 1, arbitrary: fc.constantFrom('0.3', undefined, '', '2.0', '1', 'x') },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
  );
}
