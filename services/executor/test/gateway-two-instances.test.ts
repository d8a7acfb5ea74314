/**
 * The gateway as the daemon-engine design runs it: three agents (a, b, c) from the agent
 * registry, served by two executor instances on one durable store and one Redis event log —
 * PostgreSQL (registry and tasks) + Redis, and DynamoDB (registry and tasks, dynalite) + Redis.
 * On each of JSON-RPC, REST, gRPC and WebSocket, with our client: a task sent to agent b on
 * instance 1 is read, followed and canceled through instance 2; after a restart of both
 * instances every such task is still b's on both; agents a and c never see it (GetTask and
 * CancelTask: TaskNotFound; ListTasks: empty) on any binding, before or after the restart.
 */
import {
  type BindingKey,
  Client,
  GRPC_BINDING,
  textMessage,
  WEBSOCKET_BINDING,
  type WebSocketConstructor,
  webSocketTransportFactory,
} from '@a2a-polyglot/client';
import { grpcTransportFactory } from '@a2a-polyglot/client/grpc';
import { A2AErrorCode, silentLogger } from '@a2a-polyglot/core';
import { type Task, TaskState } from '@a2a-polyglot/model';
import { DynamoAgentRegistry, migrateDynamo } from '@a2a-polyglot/stores/dynamodb';
import { describeWithRedis } from '@a2a-polyglot/testing';
import { Client as PgClient } from 'pg';
import { WebSocket } from 'ws';
import { useDynaliteWithEnvCredentials } from '../../../packages/stores/test/dynalite.js';
import type { ExecutorConfigInput } from '../src/config.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { cleanUp, describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from './durable-services.js';
import { collectStream, waitFor } from './helpers.js';

jest.setTimeout(120_000);

const WS = WebSocket as unknown as WebSocketConstructor;
const BINDINGS: readonly BindingKey[] = ['jsonrpc', 'rest', 'grpc', 'websocket'];
const AGENT_IDS = ['a', 'b', 'c'] as const;

/** How a suite's backend is set up: the executor's storage and registry settings, and how rows get into its registry. */
interface Backend {
  /** The store, event log and registry part of each instance's configuration. */
  config(): ExecutorConfigInput;
  /** Puts a `demo` agent row with this id into the registry (after the instances started: they made its table). */
  addAgent(id: string): Promise<void>;
}

/** The scenario both backends run. */
function twoInstanceSuite(backend: () => Backend): void {
  const running: RunningExecutor[] = [];
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(running.splice(0).map((r) => r.close()));
  });

  const start = async (instanceId: string): Promise<RunningExecutor> => {
    const r = await startExecutor(
      {
        host: '127.0.0.1',
        port: 0,
        grpcPort: 0,
        instanceId,
        shutdownGraceMs: 200,
        // (The demo's `slow` input ticks every 100 ms for 20 s, until canceled.)
        demo: { chunkDelayMs: 0 },
        // The default agent at the root (a registry needs one); a, b and c come from the registry.
        agents: [{ id: 'main', handler: 'demo' }],
        ...backend().config(),
      },
      { logger: silentLogger, env: {} },
    );
    running.push(r);
    return r;
  };
  /** Waits until every registry agent is served by `r` (its card answers). */
  const allServed = (r: RunningExecutor) =>
    waitFor(
      async () =>
        (await Promise.all(AGENT_IDS.map(async (id) => (await fetch(`${r.url}/agents/${id}/.well-known/agent-card.json`)).status))).every((s) => s === 200),
      {
        timeoutMs: 10_000,
        what: `agents ${AGENT_IDS.join(', ')} served at ${r.url}`,
      },
    );
  const connect = async (r: RunningExecutor, agent: string, binding: BindingKey): Promise<Client> => {
    const client = await Client.connect(`${r.url}/agents/${agent}`, {
      bindings: [binding],
      transports: { [GRPC_BINDING]: grpcTransportFactory, [WEBSOCKET_BINDING]: webSocketTransportFactory({ WebSocket: WS }) },
      timeoutMs: 10_000,
    });
    expect(client.binding).toBe(binding);
    clients.push(client);
    return client;
  };
  /** Agents a and c, on both instances and over `binding`, know nothing of `taskIds`. */
  const invisibleToOthers = async (instances: readonly RunningExecutor[], binding: BindingKey, taskIds: readonly string[]) => {
    for (const r of instances)
      for (const other of ['a', 'c']) {
        const client = await connect(r, other, binding);
        for (const id of taskIds) {
          await expect(client.getTask({ id })).rejects.toMatchObject({ code: A2AErrorCode.TaskNotFound });
          await expect(client.cancelTask({ id })).rejects.toMatchObject({ code: A2AErrorCode.TaskNotFound });
        }
        expect((await client.listTasks({})).tasks).toEqual([]);
      }
  };

  it('a task sent to agent b on one instance is read, followed and canceled through the other, survives a restart of both, and is never seen by a or c', async () => {
    const store = backend();
    let [g1, g2] = [await start('g1'), await start('g2')];
    for (const id of AGENT_IDS) await store.addAgent(id);
    await Promise.all([allServed(g1), allServed(g2)]);

    const canceled = new Map<BindingKey, Task>();
    for (const binding of BINDINGS) {
      const on1 = await connect(g1, 'b', binding);
      const on2 = await connect(g2, 'b', binding);
      const sent = await on1.sendMessage({ message: textMessage(`slow over ${binding}`), configuration: { returnImmediately: true } });
      if (sent.payload?.$case !== 'task') throw new Error(`expected a task over ${binding}, got ${sent.payload?.$case}`);
      const id = sent.payload.value.id;

      // Read through instance 2: the same task, working on instance 1.
      await waitFor(async () => (await on2.getTask({ id })).status?.state === TaskState.TASK_STATE_WORKING, {
        what: `b's task working, read on g2 over ${binding}`,
      });
      // Followed through instance 2: ticks that instance 1 produces, then canceled through instance 2.
      const followed = on2.subscribeToTask({ id });
      let cancel: Promise<Task> | undefined;
      const events = await collectStream(
        followed,
        ({ event }) => {
          if (!cancel && event.payload?.$case === 'artifactUpdate') cancel = on2.cancelTask({ id });
        },
        20_000,
      );
      const result = await cancel;
      expect(result?.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      expect(events.some(({ event }) => event.payload?.$case === 'artifactUpdate')).toBe(true);
      const last = events.at(-1)?.event;
      expect(last?.payload?.$case === 'statusUpdate' && last.payload.value.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
      // Instance 1, where it ran, sees the cancel too.
      await waitFor(async () => (await on1.getTask({ id })).status?.state === TaskState.TASK_STATE_CANCELED, { what: `g1 to see the cancel over ${binding}` });
      canceled.set(binding, (await on1.getTask({ id })) as Task);
      await invisibleToOthers([g1, g2], binding, [id]);
    }

    // A restart of both instances keeps every task b's, on both, and still no one else's.
    await Promise.all(clients.splice(0).map((c) => c.close()));
    await Promise.all(running.splice(0).map((r) => r.close()));
    [g1, g2] = [await start('g1'), await start('g2')];
    await Promise.all([allServed(g1), allServed(g2)]);
    const ids = [...canceled.values()].map((t) => t.id);
    for (const binding of BINDINGS) {
      for (const r of [g1, g2]) {
        const client = await connect(r, 'b', binding);
        for (const id of ids) expect((await client.getTask({ id })).status?.state).toBe(TaskState.TASK_STATE_CANCELED);
        expect((await client.listTasks({})).tasks.map((t) => t.id).sort()).toEqual([...ids].sort());
      }
      await invisibleToOthers([g1, g2], binding, ids);
    }
  });
}

describeWithPostgresAndRedis('gateway: three registry agents on two instances, PostgreSQL + Redis', () => {
  const schema = uniqueName('a2a_gw2');
  afterAll(() => cleanUp(schema, schema));
  twoInstanceSuite(() => ({
    config: () => ({
      store: { kind: 'postgres', url: POSTGRES_URL!, schema },
      eventLog: { kind: 'redis', url: REDIS_URL!, prefix: schema },
      agentRegistry: { url: POSTGRES_URL!, schema, resyncMs: 0 },
    }),
    async addAgent(id) {
      const pg = new PgClient({ connectionString: POSTGRES_URL });
      await pg.connect();
      try {
        await pg.query(`INSERT INTO "${schema}".a2a_agents (id, handler, settings, card, enabled) VALUES ($1, 'demo', '{}', $2, true)`, [
          id,
          { name: `Agent ${id}` },
        ]);
      } finally {
        await pg.end();
      }
    },
  }));
});

describeWithRedis('gateway: three registry agents on two instances, DynamoDB + Redis', () => {
  const local = useDynaliteWithEnvCredentials();
  const tasks = uniqueName('a2a-gw2-tasks');
  const agents = uniqueName('a2a-gw2-agents');
  const prefix = uniqueName('a2a_gw2_dynamo');
  afterAll(() => cleanUp(prefix, prefix).catch(() => undefined));
  twoInstanceSuite(() => ({
    config: () => ({
      store: { kind: 'dynamodb', table: tasks, endpoint: local().endpoint, region: 'us-east-1' },
      eventLog: { kind: 'redis', url: REDIS_URL!, prefix },
      agentRegistry: { kind: 'dynamodb', table: agents, endpoint: local().endpoint, region: 'us-east-1', pollMs: 50 },
    }),
    async addAgent(id) {
      await migrateDynamo(local().client, { table: agents });
      await new DynamoAgentRegistry(local().client, { table: agents }).put({ id, handler: 'demo', card: { name: `Agent ${id}` } });
    },
  }));
});
