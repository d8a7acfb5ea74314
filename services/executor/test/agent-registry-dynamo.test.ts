/**
 * The agent registry in DynamoDB (`agentRegistry.kind: dynamodb`, dynalite on 127.0.0.1): a
 * row written with `DynamoAgentRegistry.put` is served under /agents/{id} after the next poll
 * and answers JSON-RPC, a deleted one disappears; a row already there is served when the start
 * returns and a changed one is served anew; an unreachable
 * endpoint fails the start with one line naming the table. AWS credentials are dummies from
 * the environment, as for the DynamoDB task store's test.
 */
import { silentLogger } from '@a2a-polyglot/core';
import { DynamoAgentRegistry, migrateDynamo } from '@a2a-polyglot/stores/dynamodb';
import { uniqueName } from '@a2a-polyglot/testing';
import { useDynaliteWithEnvCredentials } from '../../../packages/stores/test/dynalite.js';
import { startExecutor, type RunningExecutor } from '../src/start-executor.js';
import { json, partsText, postJson, rpc, userMessage, V1, waitFor } from './helpers.js';

jest.setTimeout(30_000);

const local = useDynaliteWithEnvCredentials();

const started: RunningExecutor[] = [];
afterEach(async () => {
  await Promise.all(started.splice(0).map((r) => r.close()));
});

async function start(table: string, extra: Parameters<typeof startExecutor>[0] = {}): Promise<RunningExecutor> {
  const running = await startExecutor(
    {
      host: '127.0.0.1',
      port: 0,
      grpcPort: false,
      shutdownGraceMs: 300,
      demo: { chunkDelayMs: 0 },
      agents: [{ id: 'main', handler: 'demo', name: 'Main' }],
      agentRegistry: { kind: 'dynamodb', table, endpoint: local().endpoint, region: 'us-east-1', pollMs: 50 },
      ...extra,
    },
    { logger: silentLogger, env: {} },
  );
  started.push(running);
  return running;
}

const cardStatus = async (running: RunningExecutor, id: string) => (await fetch(`${running.url}/agents/${id}/.well-known/agent-card.json`)).status;
/** Waits until agent `id` is (or is not) served by `running`. */
const served = (running: RunningExecutor, id: string, expected: boolean) =>
  waitFor(async () => (await cardStatus(running, id)) === (expected ? 200 : 404), { timeoutMs: 5000, what: `agent ${id} ${expected ? '' : 'not '}served` });

/** A registry on `table` for the test to write rows with (the table migrated first). */
async function rows(table: string): Promise<DynamoAgentRegistry> {
  await migrateDynamo(local().client, { table });
  return new DynamoAgentRegistry(local().client, { table });
}

describe('agent registry in DynamoDB', () => {
  it('serves a put row after a poll, answers JSON-RPC on it, and drops it once the row is deleted', async () => {
    const table = uniqueName('a2a-registry');
    const running = await start(table);
    const registry = new DynamoAgentRegistry(local().client, { table });
    expect(await cardStatus(running, 'helper')).toBe(404);

    await registry.put({ id: 'helper', handler: 'demo', card: { name: 'Helper', description: 'From DynamoDB' } });
    await served(running, 'helper', true);
    const card = await json(await fetch(`${running.url}/agents/helper/.well-known/agent-card.json`, { headers: V1 }));
    expect(card).toMatchObject({ name: 'Helper', description: 'From DynamoDB' });
    const sent = await json(await postJson(`${running.url}/agents/helper/a2a/rpc`, rpc('SendMessage', { message: userMessage('hi dynamo registry') })));
    expect(sent.result.task.status.state).toBe('TASK_STATE_COMPLETED');
    expect(partsText(sent.result.task.artifacts[0].parts)).toContain('hi dynamo registry');
    expect((await json(await fetch(`${running.url}/agents`))).agents.map((x: any) => x.id)).toEqual(['main', 'helper']);

    await registry.delete('helper');
    await served(running, 'helper', false);
    expect((await json(await fetch(`${running.url}/agents`))).agents.map((x: any) => x.id)).toEqual(['main']);
  });

  it('serves the enabled rows already there when the start returns, and a changed row anew', async () => {
    const table = uniqueName('a2a-registry');
    const registry = await rows(table);
    await registry.put({ id: 'early', handler: 'demo', card: { name: 'Early' } });
    await registry.put({ id: 'off', handler: 'demo', enabled: false });
    const running = await start(table);
    expect(await cardStatus(running, 'early')).toBe(200);
    expect(await cardStatus(running, 'off')).toBe(404);

    const sent = await json(await postJson(`${running.url}/agents/early/a2a/message:send`, { message: userMessage('kept in dynamo') }, V1));
    expect(sent.task.status.state).toBe('TASK_STATE_COMPLETED');

    // A changed row is served anew.
    await registry.put({ id: 'early', handler: 'demo', card: { name: 'Early, renamed' } });
    await waitFor(async () => (await json(await fetch(`${running.url}/agents/early/.well-known/agent-card.json`, { headers: V1 }))).name === 'Early, renamed', {
      what: 'the renamed card',
    });
  });

  it('refuses to start with one line naming the table and the cause when DynamoDB cannot be reached', async () => {
    const failed = startExecutor(
      {
        host: '127.0.0.1',
        port: 0,
        grpcPort: false,
        agents: [{ id: 'main', handler: 'demo' }],
        agentRegistry: { table: 'a2a-agents', endpoint: 'http://127.0.0.1:1', region: 'us-east-1' },
      },
      { logger: silentLogger, env: {} },
    );
    await expect(failed).rejects.toThrow(/^Cannot open the agent registry at DynamoDB table a2a-agents at http:\/\/127\.0\.0\.1:1: .*ECONNREFUSED/);
  });
});
