/**
 * A2A 1.1 (draft, experimental) task generations, on the event numbers the core already keeps:
 * a task's generation is the `seq` of the last event folded into it (1 for the creating event,
 * one more per status or artifact event, the store's `version` in durable mode), so nothing new
 * is counted or stored. What this module adds is how the number reaches a 1.1 call and nobody
 * else: 1.0 answers must not carry it (strict ProtoJSON clients reject unknown members), and the
 * events in the log are shared by every reader, so the field is set on copies made for the
 * answer of a call that negotiated 1.1 ({@link Caller.version}). It also reads the two 1.1
 * request fields and builds the mismatch error.
 * @internal
 */
import type { Task } from '@a2a-polyglot/model';
import { A2AError, errors } from './a2a-error.js';
import { A2AErrorCode } from './error-code.js';
import type { LoggedEvent } from './event-log.js';
import { mappedEventStream, type EventStream } from './event-stream.js';
import { EXPERIMENTAL_VERSION } from './protocol-version.js';
import type { Caller } from './request-handler-helpers.js';

/** True when the call negotiated the experimental 1.1 (its answers carry generations). */
export function speaks11(caller: Caller): boolean {
  return caller.version === EXPERIMENTAL_VERSION;
}

/**
 * The task as answered to `caller`: for a 1.1 call, with `generation` = `seq`; otherwise as is.
 * `task` must be a copy made for this answer (a `taskView`): it is changed in place.
 */
export function answerTask(caller: Caller, task: Task, seq: number): Task {
  if (speaks11(caller)) task.generation = String(seq);
  return task;
}

/**
 * A logged event with the generation it produced (its `seq`), for a 1.1 stream: a copy, since
 * the logged one is shared by every reader. Direct messages (not task events) pass unchanged.
 */
export function eventWithGeneration(logged: LoggedEvent): LoggedEvent {
  const payload = logged.event.payload;
  const generation = String(logged.seq);
  switch (payload?.$case) {
    case 'task':
      return { seq: logged.seq, event: { payload: { $case: 'task', value: { ...payload.value, generation } } } };
    case 'statusUpdate':
      return { seq: logged.seq, event: { payload: { $case: 'statusUpdate', value: { ...payload.value, generation } } } };
    case 'artifactUpdate':
      return { seq: logged.seq, event: { payload: { $case: 'artifactUpdate', value: { ...payload.value, generation } } } };
    default:
      return logged;
  }
}

/** The stream as `caller` reads it: every task event with its generation for a 1.1 call, else the stream itself. */
export function answerStream(caller: Caller, stream: EventStream): EventStream {
  return speaks11(caller) ? mappedEventStream(stream, eventWithGeneration) : stream;
}

/**
 * A 1.1 request field holding a generation (`currentGeneration`, `ifGenerationMatch`), as a
 * number; undefined when unset, and also for a call that did not negotiate 1.1: in 1.0 the
 * member does not exist, and a 1.0 server ignores members it does not know (spec §6.1).
 *
 * @throws A2AError InvalidParams for a value that is not a non-negative integer.
 */
export function generationField(caller: Caller, value: string | undefined, field: string): number | undefined {
  if (value === undefined || !speaks11(caller)) return undefined;
  // int64 arrives as text (ProtoJSON may spell it `"3"`, `3` or `"3e0"`; the binary decoder as decimals).
  const generation = value.trim() === '' ? Number.NaN : Number(value);
  if (!Number.isInteger(generation) || generation < 0) {
    throw errors.invalidParams(`${field} must be a non-negative integer`, [{ field, description: 'not a generation' }]);
  }
  return generation;
}

/**
 * TaskGenerationMismatchError (1.1): a follow-up named generation `expected` of a task now at
 * `current`, or one that another follow-up answered first. The metadata names both, as the
 * spec's example does, so a client can tell how far behind it is.
 */
export function generationMismatch(taskId: string, expected: number, current: number): A2AError {
  const message =
    expected === current
      ? `Task ${taskId}: another message was accepted at generation ${current} first`
      : `Task generation mismatch: expected ${expected} but current generation is ${current}`;
  return new A2AError(A2AErrorCode.TaskGenerationMismatch, message, {
    metadata: { taskId, expectedGeneration: String(expected), currentGeneration: String(current) },
  });
}
