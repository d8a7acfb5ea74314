/**
 * The conformance suite through a gateway to a REMOTE agent that speaks A2A v0.3 JSON-RPC only:
 * each scenario's handler (the scripted agent and its card) is served on a second server that
 * offers v0.3 JSON-RPC and nothing else (`startV03OnlyServer`), and a gateway executor fronts
 * it with an `a2a-remote` agent configured with the scenario's card fields and handler
 * options, as an operator would configure it. The scenario is driven at the gateway on every
 * binding the executor serves the agent over (`gatewayBindings`); every run must pass and
 * match the in-process reference.
 *
 * The gateway's handler keeps the tasks, push configs and streams; the remote runs the agent.
 * Scenarios that are about what only the remote's own handler can know or be configured with
 * are skipped, each with its reason ({@link REMOTE_SKIPS}); two are not compared with the
 * reference ({@link NOT_COMPARED}).
 */
import { type RequestHandler, silentLogger } from '@a2a-polyglot/core';
import {
  crossBindingDiffs,
  inProcessBinding,
  loadScenarios,
  runScenario,
  type Scenario,
  type ScenarioRun,
  scenarioSkipReason,
} from '@a2a-polyglot/conformance';
import { AgentCard } from '@a2a-polyglot/model';
import { startExecutor } from '../src/start-executor.js';
import { GATEWAY_AGENT, GATEWAY_LISTENERS, gatewayBindings, gatewaySkipReason, type StartedGateway } from './conformance-gateway.js';
import { startV03OnlyServer } from './v03-only-server.js';

jest.setTimeout(30_000);

/**
 * Scenarios that cannot pass through a remote agent by their nature, with the reason. Keep it
 * short: a scenario that fails through the gateway for any other reason is a gap to fix.
 */
const REMOTE_SKIPS: Readonly<Record<string, string>> = {
  'capabilities/extended-card-not-configured': "the gateway's extended card is its own (its configuration serves one), the remote's is not asked for",
  'capabilities/extended-card-configured': "the gateway's extended card is its own (its configuration serves one), the remote's is not asked for",
  'capabilities/required-extension': "the gateway's card is its configuration, which declares no extensions: only the remote refuses the call",
  'streaming/stream-fails-after-first-event':
    "the fault breaks the remote server's stream; the gateway's own stream does not break, it reports the task failed",
};

/**
 * Scenarios that pass through the gateway but are left out of the comparison with the in-process
 * reference, with the reason. A send that does not wait is answered with the task as of its
 * first event: in process that is the agent's own first `working`, through the gateway it is
 * the remote's task creation (SUBMITTED), which reaches the gateway before the remote's
 * `working` does. The scenarios' own expectations still hold on every binding.
 */
const NOT_COMPARED: Readonly<Record<string, string>> = {
  'generation/long-poll-wakes-on-next-event': "the non-waiting send's answer is the remote's task creation, one generation before the in-process answer",
  'generation/long-poll-bound': "the non-waiting send's answer is the remote's task creation, one generation before the in-process answer",
};

/**
 * A gateway fronting `handler` on a v0.3-only server: the `a2a-remote` agent {@link GATEWAY_AGENT}
 * carries the scenario's card (name, capabilities, modes, skills) and handler options, so its
 * own handler answers as the scenario's would.
 */
async function remoteGateway(handler: RequestHandler, scenario: Scenario): Promise<StartedGateway> {
  const remote = await startV03OnlyServer(handler);
  try {
    const running = await startExecutor(
      {
        ...GATEWAY_LISTENERS,
        protocol: {
          experimental11: handler.experimental11,
          ...(scenario.handler?.longPollMaxMs !== undefined && { longPollMaxMs: scenario.handler.longPollMaxMs }),
        },
        agents: [
          { id: 'main', handler: 'demo' },
          {
            id: GATEWAY_AGENT,
            handler: 'a2a-remote',
            settings: { url: remote.url },
            ...cardConfigOf(handler),
            backgroundExecution: handler.backgroundExecution,
            ...(scenario.handler?.acceptAnyInputMode !== undefined && { acceptAnyInputMode: scenario.handler.acceptAnyInputMode }),
          },
        ],
      },
      { logger: silentLogger, env: {} },
    );
    return {
      running,
      async close() {
        // The gateway first (it holds connections to the remote), then the remote.
        await running.close();
        await remote.close();
      },
    };
  } catch (error) {
    await remote.close();
    throw error;
  }
}

/** The card fields of an agent entry that reproduce the handler's card. */
function cardConfigOf(handler: RequestHandler) {
  const card = AgentCard.toJSON(handler.card) as {
    name: string;
    description: string;
    version: string;
    capabilities?: { streaming?: boolean; pushNotifications?: boolean; extendedAgentCard?: boolean };
    defaultInputModes: string[];
    defaultOutputModes: string[];
    skills?: { id: string; name: string; description: string; tags?: string[]; examples?: string[]; inputModes?: string[]; outputModes?: string[] }[];
  };
  const { streaming, pushNotifications, extendedAgentCard } = card.capabilities ?? {};
  return {
    name: card.name,
    description: card.description,
    version: card.version,
    capabilities: { streaming: streaming ?? false, pushNotifications: pushNotifications ?? false, extendedAgentCard: extendedAgentCard ?? false },
    defaultInputModes: card.defaultInputModes,
    defaultOutputModes: card.defaultOutputModes,
    skills: (card.skills ?? []).map((s) => ({ ...s, tags: s.tags ?? [] })),
  };
}

const scenarios = loadScenarios();
const runs: ScenarioRun[] = [];
/** The gateway bindings of one scenario (their gateways are configured from it). */
const bindingsFor = (scenario: Scenario) => gatewayBindings((handler) => remoteGateway(handler, scenario));
const BINDING_NAMES = [inProcessBinding.name, ...bindingsFor(scenarios[0]!).map((b) => b.name)];

describe.each(BINDING_NAMES)('%s', (name) => {
  const bindingOf = (scenario: Scenario) => (name === inProcessBinding.name ? inProcessBinding : bindingsFor(scenario).find((b) => b.name === name)!);
  const skip = (s: Scenario) => {
    const binding = bindingOf(s);
    return scenarioSkipReason(s, binding) ?? gatewaySkipReason(s, binding) ?? (binding === inProcessBinding ? undefined : REMOTE_SKIPS[s.name]);
  };
  const runnable = scenarios.filter((s) => skip(s) === undefined);
  const skipped = scenarios.filter((s) => skip(s) !== undefined);
  if (skipped.length > 0) test.skip.each(skipped.map((scenario) => [`${name}/${scenario.name} (${skip(scenario)})`]))('%s', () => undefined);
  test.each(runnable.map((scenario) => [`${name}/${scenario.name}`, scenario] as const))('%s', async (_title, scenario) => {
    const run = await runScenario(scenario, bindingOf(scenario));
    runs.push(run);
    expect(run.failures).toEqual([]);
  });
});

describe('cross-binding', () => {
  test('the remote v0.3 agent answers every scenario through the gateway on every binding as the in-process reference does', () => {
    expect(crossBindingDiffs(runs.filter((run) => NOT_COMPARED[run.scenario] === undefined))).toEqual([]);
  });
});
