import { TaskState } from '@a2a-polyglot/model';
import { Gates, SCRIPTED_FAILURE_DETAIL, scriptedAgent, type ScriptedAgentContext } from '../src/index.js';

/** A context that records what the agent reported, in order. */
function context(text: string, state?: TaskState, signal = new AbortController().signal): ScriptedAgentContext & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    text,
    task: state === undefined ? undefined : { status: { state } },
    signal,
    reply: (m) => void calls.push(`reply ${m}`),
    working: (m) => void calls.push(`working${m ? ` ${m}` : ''}`),
    artifact: (a) => void calls.push(`artifact ${a.name} ${a.text}`),
    complete: (m) => void calls.push(`complete${m ? ` ${m}` : ''}`),
    requireInput: (m) => void calls.push(`input ${m}`),
  };
}

describe('scriptedAgent', () => {
  const run = async (text: string, state?: TaskState) => {
    const ctx = context(text, state);
    await scriptedAgent(new Gates()).execute(ctx);
    return ctx.calls;
  };

  it('answers each command of its vocabulary', async () => {
    expect(await run('echo a b')).toEqual(['reply echo a b']);
    expect(await run('steps 2')).toEqual(['working working', 'artifact chunk-0 chunk 0', 'artifact chunk-1 chunk 1', 'complete done']);
    expect(await run('flood 1 3')).toEqual(['working flooding', 'artifact flood-0 xxx', 'complete flooded']);
    expect(await run('input')).toEqual(['input which city?']);
    expect(await run('Paris', TaskState.TASK_STATE_INPUT_REQUIRED)).toEqual(['artifact answer got Paris', 'complete got Paris']);
    expect(await run('hello')).toEqual(['working', 'artifact answer echo: hello', 'complete']);
    await expect(run('fail')).rejects.toThrow(SCRIPTED_FAILURE_DETAIL);
  });

  it('waits at named gates: gate K, steps N K after the first chunk, burst N K after all chunks', async () => {
    const gates = new Gates();
    const agent = scriptedAgent(gates);
    const gated = context('gate g1 2');
    const stepped = context('steps 2 g2');
    const burst = context('burst 2 g2');
    const runs = [agent.execute(gated), agent.execute(stepped), agent.execute(burst)];
    await Promise.resolve();
    expect(gates.reached('g1') && gates.reached('g2')).toBe(true);
    expect(gated.calls).toEqual(['working waiting for g1']);
    expect(stepped.calls).toEqual(['working working', 'artifact chunk-0 chunk 0']);
    expect(burst.calls).toEqual(['working working', 'artifact chunk-0 chunk 0', 'artifact chunk-1 chunk 1']);
    gates.openAll();
    await Promise.all(runs);
    expect(gated.calls.slice(1)).toEqual(['artifact after-0 after 0', 'artifact after-1 after 1', 'complete done']);
    expect(stepped.calls.slice(2)).toEqual(['artifact chunk-1 chunk 1', 'complete done']);
    expect(burst.calls.slice(3)).toEqual(['complete done']);
  });

  it('hang and a gate end when the run is canceled, reporting nothing more', async () => {
    const controller = new AbortController();
    const hang = context('hang', undefined, controller.signal);
    const gate = context('gate never', undefined, controller.signal);
    const agent = scriptedAgent(new Gates());
    const runs = Promise.all([agent.execute(hang), agent.execute(gate)]);
    controller.abort();
    await runs;
    expect(hang.calls).toEqual(['working hanging']);
    expect(gate.calls).toEqual(['working waiting for never']);
  });
});
