/**
 * The conformance suite against a NON-default agent of a multi-agent executor, on every
 * binding the executor serves it over: each scenario's handler is served as agent `scenario`
 * beside a default demo agent (`agentHandlers`), and driven at `/agents/scenario/...` (JSON-RPC
 * and REST of both generations), `/agents/scenario/a2a/ws` (WebSocket) and the shared gRPC port
 * (v1.0 addressed by the request's `tenant`, as the agent's card advertises it, and by the
 * `a2a-agent` metadata; v0.3, which has no tenant, by the metadata; the experimental session
 * service by the session's metadata and by each request's tenant). Every run must pass and
 * match the in-process reference.
 */
import { silentLogger, type RequestHandler } from '@a2a-polyglot/core';
import { crossBindingDiffs, inProcessBinding, loadScenarios, runScenario, scenarioSkipReason, type ScenarioRun } from '@a2a-polyglot/conformance';
import { startExecutor } from '../src/start-executor.js';
import { GATEWAY_AGENT, GATEWAY_LISTENERS, gatewayBindings, gatewaySkipReason, type StartedGateway } from './conformance-gateway.js';

jest.setTimeout(30_000);

/** An executor serving `handler` as the non-default agent {@link GATEWAY_AGENT}. */
async function gateway(handler: RequestHandler): Promise<StartedGateway> {
  const running = await startExecutor(
    {
      ...GATEWAY_LISTENERS,
      demo: { chunkDelayMs: 0 },
      agents: [
        { id: 'main', handler: 'demo' },
        { id: GATEWAY_AGENT, handler: 'demo' },
      ],
    },
    { logger: silentLogger, env: {}, agentHandlers: { [GATEWAY_AGENT]: handler } },
  );
  return { running, close: () => running.close() };
}

const GATEWAY_BINDINGS = gatewayBindings(gateway);

const scenarios = loadScenarios();
const runs: ScenarioRun[] = [];

describe.each([inProcessBinding, ...GATEWAY_BINDINGS].map((binding) => [binding.name, binding] as const))('%s', (name, binding) => {
  const skip = (s: (typeof scenarios)[number]) => scenarioSkipReason(s, binding) ?? gatewaySkipReason(s, binding);
  const runnable = scenarios.filter((s) => skip(s) === undefined);
  const skipped = scenarios.filter((s) => skip(s) !== undefined);
  if (skipped.length > 0) test.skip.each(skipped.map((scenario) => [`${name}/${scenario.name} (${skip(scenario)})`]))('%s', () => undefined);
  test.each(runnable.map((scenario) => [`${name}/${scenario.name}`, scenario] as const))('%s', async (_title, scenario) => {
    const run = await runScenario(scenario, binding);
    runs.push(run);
    expect(run.failures).toEqual([]);
  });
});

describe('cross-binding', () => {
  test('the non-default agent answers every scenario on every binding as the in-process reference does', () => {
    expect(crossBindingDiffs(runs)).toEqual([]);
  });
});
