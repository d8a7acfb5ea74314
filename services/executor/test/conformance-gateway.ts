/**
 * The conformance suite's bindings as an executor serves a non-default agent over them: JSON-RPC
 * and REST of both generations at `/agents/{agent}/...`, WebSocket at `/agents/{agent}/a2a/ws`
 * and the shared gRPC port (v1.0 addressed by the request's `tenant`, as the agent's card
 * advertises it, or by the `a2a-agent` metadata; v0.3, which has no tenant, by the metadata;
 * the experimental session service both ways).
 * What the executor serves there is up to the test (`StartGateway`): the scenario's handler
 * itself, or an agent that fronts it on another server.
 */
import type { RequestHandler } from '@a2a-polyglot/core';
import {
  BINDINGS,
  GrpcDriver,
  GrpcSessionDriver,
  JsonRpcDriver,
  RestDriver,
  RestV03Driver,
  V03_DIALECT,
  V03_GRPC_WIRE,
  V1_GRPC_WIRE,
  WebSocketDriver,
  type Binding,
  type Driver,
} from '@a2a-polyglot/conformance';
import type { RunningExecutor } from '../src/start-executor.js';

/** The id of the agent under test on the gateway. */
export const GATEWAY_AGENT = 'scenario';

/** Where and how a gateway executor of these tests listens: loopback, any ports, a short shutdown, webhooks to the test's receiver allowed. */
export const GATEWAY_LISTENERS = { host: '127.0.0.1', port: 0, grpcPort: 0, shutdownGraceMs: 200, push: { allowPrivateNetworks: true } } as const;

/** An executor serving the scenario's agent as {@link GATEWAY_AGENT}; `close` stops it and whatever it fronts. */
export interface StartedGateway {
  readonly running: RunningExecutor;
  close(): Promise<void>;
}

/** Starts the gateway for one scenario run, given the scenario's handler. */
export type StartGateway = (handler: RequestHandler) => Promise<StartedGateway>;

type DriverFactory = (running: RunningExecutor, base: string, cardUrl: string, close: () => Promise<void>) => Promise<Driver> | Driver;

/** A binding of the reference suite, started on the gateway and driven at the agent's address. */
function onGateway(name: string, start: StartGateway, driver: DriverFactory): Binding {
  const reference = BINDINGS.find((b) => b.name === name.replace(/-by-.*$/, ''))!;
  return {
    ...reference,
    name,
    async start(handler) {
      const gateway = await start(handler);
      const base = `${gateway.running.url}/agents/${GATEWAY_AGENT}`;
      try {
        return await driver(gateway.running, base, `${base}/.well-known/agent-card.json`, () => gateway.close());
      } catch (error) {
        await gateway.close();
        throw error;
      }
    },
  };
}

/** v1.0 gRPC as a card-following client calls it: the interface's tenant copied into every request that has none. */
const byTenant = {
  ...V1_GRPC_WIRE,
  toWire: (_op: string, request: unknown) => ({ ...(request as object), tenant: (request as { tenant?: string }).tenant || GATEWAY_AGENT }),
};
const byMetadata = <W extends typeof V1_GRPC_WIRE>(wire: W): W => ({ ...wire, defaults: { ...wire.defaults, 'a2a-agent': GATEWAY_AGENT } });

/** Every binding the executor serves the agent over, each starting its gateway with `start`. */
export function gatewayBindings(start: StartGateway): Binding[] {
  return [
    onGateway('jsonrpc', start, (_r, base, card, close) => new JsonRpcDriver(`${base}/a2a/rpc`, card, close)),
    onGateway('jsonrpc-v03', start, (_r, base, card, close) => new JsonRpcDriver(`${base}/a2a/rpc`, card, close, V03_DIALECT)),
    onGateway('rest', start, (_r, base, card, close) => new RestDriver(`${base}/a2a`, card, close)),
    onGateway('rest-v03', start, (_r, base, card, close) => new RestV03Driver(`${base}/a2a`, card, close)),
    onGateway('websocket', start, (_r, base, card, close) => WebSocketDriver.connect(`${base.replace('http:', 'ws:')}/a2a/ws`, card, close)),
    onGateway('grpc-by-tenant', start, (r, _base, card, close) => new GrpcDriver(r.grpc!.url, card, close, byTenant)),
    onGateway('grpc-by-metadata', start, (r, _base, card, close) => new GrpcDriver(r.grpc!.url, card, close, byMetadata(V1_GRPC_WIRE))),
    onGateway('grpc-v03-by-metadata', start, (r, _base, card, close) => new GrpcDriver(r.grpc!.url, card, close, byMetadata(V03_GRPC_WIRE))),
    onGateway(
      'grpc-session-by-tenant',
      start,
      (r, _base, card, close) => new GrpcSessionDriver(new GrpcDriver(r.grpc!.url, card, close, byTenant), { tenant: GATEWAY_AGENT }),
    ),
    onGateway(
      'grpc-session-by-metadata',
      start,
      (r, _base, card, close) =>
        new GrpcSessionDriver(new GrpcDriver(r.grpc!.url, card, close, byMetadata(V1_GRPC_WIRE)), { metadata: { 'a2a-agent': GATEWAY_AGENT } }),
    ),
  ];
}

/**
 * Scenarios a gateway binding cannot run, with the reason: a client that addresses the agent
 * by tenant cannot also use tenants of its own (the `tenant` scenario); the metadata form can.
 */
export function gatewaySkipReason(scenario: { name: string }, binding: Binding): string | undefined {
  if ((binding.name === 'grpc-by-tenant' || binding.name === 'grpc-session-by-tenant') && scenario.name.endsWith('/tenant'))
    return 'the tenant addresses the agent here; use the a2a-agent metadata to keep tenants of your own';
  return undefined;
}
