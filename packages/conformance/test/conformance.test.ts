import { BINDINGS, crossBindingDiffs, loadScenarios, runScenario, type ScenarioRun } from '../src/index.js';

/**
 * Every scenario on every binding, then one check that all bindings produced identical
 * normalized outcomes. Test names are `<binding>/<group>/<scenario>`, so
 * `-t 'rest/streaming/'` runs one group on one binding.
 */
const scenarios = loadScenarios();
const runs: ScenarioRun[] = [];

describe.each(BINDINGS.map((binding) => [binding.name, binding] as const))('%s', (name, binding) => {
  test.each(scenarios.map((scenario) => [`${name}/${scenario.name}`, scenario] as const))('%s', async (_title, scenario) => {
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
