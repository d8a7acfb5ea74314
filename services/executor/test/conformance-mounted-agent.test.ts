/**
 * The conformance suite against a NON-default agent of a multi-agent executor, on every
 * binding the executor serves it over: each scenario's handler is served as agent `scenario`
 * beside a default demo agent (`agentHandlers`), and driven at `/agents/scenario/...` (JSON-RPC
 * and REST of both generations), `/agents/scenario/a2a/ws` (WebSocket) and the shared gRPC port
 * (v1.0 addressed by the request's `tenant`, as the agent's card advertises it, and by the
 * `a2a-agent` metadata; v0.3, which has no tenant, by the metadata). Every run must pass and
 * match the in-process reference.
 *
 * Not covered: the experimental gRPC session service, which serves the default agent only.
 */
import { silentLogger, type RequestHandler } from '@a2a-polyglot/core';
import {
  BINDINGS,
  crossBindingDiffs,
  GrpcDriver,
  inProcessBinding,
  JsonRpcDriver,
  loadScenarios,
  RestDriver,
  RestV03Driver,
  runScenario,
  scenarioSkipReason,
  V03_DIALECT,
  V03_GRPC_WIRE,
  V1_GRPC_WIRE,
  WebSocketDriver,
  type Binding,
  type Driver,
  type ScenarioRun,
} from '@a2a-polyglot/conformance';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';

jest.setTimeout(30_000);

const AGENT = 'scenario';

/** An executor serving `handler` as the non-default agent {@link AGENT}. */
function gateway(handler: RequestHandler): Promise<RunningExecutor> {
  return startExecutor(
    {
      host: '127.0.0.1',
      port: 0,
      grpcPort: 0,
      shutdownGraceMs: 200,
      push: { allowPrivateNetworks: true },
      demo: { chunkDelayMs: 0 },
      agents: [
        { id: 'main', handler: 'demo' },
        { id: AGENT, handler: 'demo' },
      ],
    },
    { logger: silentLogger, env: {}, agentHandlers: { [AGENT]: handler } },
  );
}

/** A binding of the reference suite, started on the gateway and driven at the agent's address. */
function onGateway(name: string, driver: (running: RunningExecutor, base: string, cardUrl: string) => Promise<Driver> | Driver): Binding {
  const reference = BINDINGS.find((b) => b.name === name.replace(/-by-.*$/, ''))!;
  return {
    ...reference,
    name,
    async start(handler) {
      const running = await gateway(handler);
      const base = `${running.url}/agents/${AGENT}`;
      try {
        return await driver(running, base, `${base}/.well-known/agent-card.json`);
      } catch (error) {
        await running.close();
        throw error;
      }
    },
  };
}

/** v1.0 gRPC as a card-following client calls it: the interface's tenant copied into every request that has none. */
const byTenant = {
  ...V1_GRPC_WIRE,
  toWire: (_op: string, request: unknown) => ({ ...(request as object), tenant: (request as { tenant?: string }).tenant || AGENT }),
};
const byMetadata = <W extends typeof V1_GRPC_WIRE>(wire: W): W => ({ ...wire, defaults: { ...wire.defaults, 'a2a-agent': AGENT } });

const GATEWAY_BINDINGS: readonly Binding[] = [
  onGateway('jsonrpc', (r, base, card) => new JsonRpcDriver(`${base}/a2a/rpc`, card, () => r.close())),
  onGateway('jsonrpc-v03', (r, base, card) => new JsonRpcDriver(`${base}/a2a/rpc`, card, () => r.close(), V03_DIALECT)),
  onGateway('rest', (r, base, card) => new RestDriver(`${base}/a2a`, card, () => r.close())),
  onGateway('rest-v03', (r, base, card) => new RestV03Driver(`${base}/a2a`, card, () => r.close())),
  onGateway('websocket', (r, base, card) => WebSocketDriver.connect(`${base.replace('http:', 'ws:')}/a2a/ws`, card, () => r.close())),
  onGateway('grpc-by-tenant', (r, _base, card) => new GrpcDriver(r.grpc!.url, card, () => r.close(), byTenant)),
  onGateway('grpc-by-metadata', (r, _base, card) => new GrpcDriver(r.grpc!.url, card, () => r.close(), byMetadata(V1_GRPC_WIRE))),
  onGateway('grpc-v03-by-metadata', (r, _base, card) => new GrpcDriver(r.grpc!.url, card, () => r.close(), byMetadata(V03_GRPC_WIRE))),
];

/**
 * Scenarios a binding cannot run here, with the reason: a client that addresses the agent by
 * tenant cannot also use tenants of its own (the `tenant` scenario); the metadata form can.
 */
function gatewaySkipReason(scenario: { name: string }, binding: Binding): string | undefined {
  if (binding.name === 'grpc-by-tenant' && scenario.name.endsWith('/tenant'))
    return 'the tenant addresses the agent here; use the a2a-agent metadata to keep tenants of your own';
  return undefined;
}

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
