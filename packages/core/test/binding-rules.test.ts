import { recordingLogger } from '@a2a-polyglot/testing';
import { TaskState } from '@a2a-polyglot/model';
import { A2AError, A2AErrorCode, eventState, findOperation, logFailure, OPERATIONS, resumeCursor } from '../src/index.js';
import { isServerFault } from '../src/server-fault.js';

/** The protocol rules every binding calls instead of spelling them out again. */
describe('rules the bindings share', () => {
  describe('resumeCursor', () => {
    it('keeps absent absent and reads a non-negative integer as a number or as text', () => {
      expect(resumeCursor(undefined, 'Last-Event-ID')).toBeUndefined();
      expect(resumeCursor(0, 'resumeAfterSeq')).toBe(0);
      expect(resumeCursor(17, 'resumeAfterSeq')).toBe(17);
      expect(resumeCursor('17', 'Last-Event-ID')).toBe(17);
      expect(resumeCursor(' 4 ', 'a2a-last-event-id')).toBe(4);
      expect(resumeCursor('999999999999999', 'Last-Event-ID')).toBe(999_999_999_999_999);
    });

    it.each([-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1, '-1', 'abc', '1e3', '', '1234567890123456', null, true, {}])(
      'refuses %p as InvalidParams naming the field it came in',
      (raw) => {
        let thrown: unknown;
        try {
          resumeCursor(raw, 'Last-Event-ID');
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(A2AError);
        expect(thrown).toMatchObject({ code: A2AErrorCode.InvalidParams, fieldViolations: [{ field: 'Last-Event-ID' }] });
      },
    );
  });

  describe('isServerFault / logFailure', () => {
    it('blames the server for bugs, broken agents and failed dependencies, not for refusals', () => {
      expect(isServerFault(new A2AError(A2AErrorCode.Internal))).toBe(true);
      expect(isServerFault(A2AError.from(new Error('boom')))).toBe(true);
      expect(isServerFault(new A2AError(A2AErrorCode.InvalidAgentResponse))).toBe(true);
      expect(isServerFault(new A2AError(A2AErrorCode.Unavailable, 'redis down', { cause: new Error('ECONNREFUSED') }))).toBe(true);
      expect(isServerFault(new A2AError(A2AErrorCode.Unavailable, 'The server is shutting down'))).toBe(false);
      expect(isServerFault(new A2AError(A2AErrorCode.InvalidParams))).toBe(false);
      // A client that aborts is not our fault, although the abort is kept as the cause.
      expect(isServerFault(A2AError.from(Object.assign(new Error('x'), { name: 'AbortError' })))).toBe(false);
    });

    it('logs faults as errors with their cause and the rest at debug', () => {
      const logger = recordingLogger();
      const cause = new Error('secret detail');
      logFailure(logger, A2AError.from(cause), 'REST call', { method: 'GetTask' });
      logFailure(logger, new A2AError(A2AErrorCode.TaskNotFound), 'REST call');
      expect(logger.lines).toEqual([
        { level: 'error', msg: 'REST call failed', fields: { method: 'GetTask', code: A2AErrorCode.Internal, message: 'Internal error', err: cause } },
        { level: 'debug', msg: 'REST call rejected', fields: { code: A2AErrorCode.TaskNotFound, message: 'Task not found' } },
      ]);
    });
  });

  it('findOperation resolves own operation names only', () => {
    expect(findOperation('GetTask')).toBe(OPERATIONS.GetTask);
    expect(findOperation('toString')).toBeUndefined();
    expect(findOperation('__proto__')).toBeUndefined();
    expect(findOperation('tasks/get')).toBeUndefined();
  });

  it('eventState reads the state of a task snapshot or a status update, nothing else', () => {
    const status = { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined };
    expect(eventState({ payload: { $case: 'statusUpdate', value: { taskId: 't', contextId: 'c', status, metadata: undefined } } })).toBe(
      TaskState.TASK_STATE_WORKING,
    );
    expect(eventState({ payload: undefined })).toBeUndefined();
  });
});
