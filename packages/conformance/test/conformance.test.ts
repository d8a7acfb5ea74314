import { BINDINGS, crossBindingDiffs, loadScenarios, runScenario, scenarioSkipReason, type ScenarioRun } from '../src/index.js';

/**
 * Every scenario on every binding, then one check that all bindings produced identical
 * normalized outcomes. Test names are `<binding>/<group>/<scenario>`, so
 * `-t 'rest/streaming/'` runs one group on one binding. A scenario that needs the other
 * request encoding (`requestEncoding`) or protocol generation (`protocolVersion`, e.g.
 * ListTasks, which A2A v0.3 lacks) shows up as skipped on that binding, with the reason.
 */
const scenarios = loadScenarios();
const runs: ScenarioRun[] = [];

describe.each(BINDINGS.map((binding) => [binding.name, binding] as const))('%s', (name, binding) => {
  const runnable = scenarios.filter((s) => scenarioSkipReason(s, binding) === undefined);
  const skipped = scenarios.filter((s) => scenarioSkipReason(s, binding) !== undefined);
  if (skipped.length > 0)
    test.skip.each(skipped.map((scenario) => [`${name}/${scenario.name} (${scenarioSkipReason(scenario, binding)})`]))('%s', () => undefined);
  test.each(runnable.map((scenario) => [`${name}/${scenario.name}`, scenario] as const))('%s', async (_title, scenario) => {
    const run = await runScenario(scenario, binding);
    runs.push(run);
    expect(run.failures).toEqual([]);
  });
});

describe('cross-binding', () => {
  test('every binding produces the same normalized outcome for every scenario', () => {
    expect(crossBindingDiffs(runs)).toEqual([]);
  });
});
