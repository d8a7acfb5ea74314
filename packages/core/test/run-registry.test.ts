import { A2AError } from '../src/a2a-error.js';
import { A2AErrorCode } from '../src/error-code.js';
import { runKey } from '../src/request-handler-helpers.js';
import { RunRegistry } from '../src/run-registry.js';
import type { TaskRun } from '../src/task-run.js';

const busy = () => new A2AError(A2AErrorCode.TaskNotCancelable, 'taken');
/** Only what the registry reads of a run: its task. */
const runOf = (taskId: string) => ({ tenant: 't', taskId }) as TaskRun;

describe('RunRegistry: who holds a task in this process', () => {
  it('a second reservation of a task is refused with the caller’s own error until the first is released', () => {
    const runs = new RunRegistry();
    const key = runKey('t', 'a');
    const release = runs.reserve(key, busy);
    expect(runs.busy(key)).toBe(true);
    expect(() => runs.reserve(key, busy)).toThrow('taken');
    // Another task is unaffected.
    runs.reserve(runKey('t', 'b'), busy)();
    release();
    expect(runs.busy(key)).toBe(false);
    expect(runs.reserve(key, busy)).toBeInstanceOf(Function);
  });

  it('a release ends only its own reservation: releasing twice does not free a later holder', () => {
    const runs = new RunRegistry();
    const key = runKey('t', 'a');
    const first = runs.reserve(key, busy);
    first();
    runs.reserve(key, busy);
    first();
    expect(runs.isReserved(key)).toBe(true);
  });

  it('forgetting a run that was replaced keeps the newer run of the task', () => {
    const runs = new RunRegistry();
    const older = runOf('a');
    const newer = runOf('a');
    runs.register(older);
    runs.register(newer);
    runs.unregister(older);
    expect(runs.find('t', 'a')).toBe(newer);
    expect(runs.get(runKey('t', 'a'))).toBe(newer);
    expect(runs.size).toBe(1);
    const snapshot = runs.active();
    runs.unregister(newer);
    expect(snapshot).toEqual([newer]);
    expect(runs.size).toBe(0);
    expect(runs.busy(runKey('t', 'a'))).toBe(false);
  });
});
