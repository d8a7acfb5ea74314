/**
 * The agent registry in the DynamoDB task table (dynalite): rows written with `put` come back
 * from `list` by id, with `updated_at` set by the write; `delete` removes one; a card over
 * `maxCardBytes` comes back as `{}` with its size; the rows are read with a paginated Query
 * (more than one 1 MB page) and never mix with the tasks of the same table; `watch` polls.
 */
import { DynamoAgentRegistry, DynamoTaskStore, migrateDynamo } from '@a2a-polyglot/stores/dynamodb';
import { PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { waitFor } from '@a2a-polyglot/testing';
import { useDynalite } from './dynalite.js';
import { stored } from './fixtures.js';
import { uniqueName } from './services.js';

const local = useDynalite();

async function registry(pollMs?: number): Promise<{ table: string; registry: DynamoAgentRegistry }> {
  const table = uniqueName('a2a_agents');
  await migrateDynamo(local().client, { table });
  return { table, registry: new DynamoAgentRegistry(local().client, { table, pollMs }) };
}

describe('DynamoAgentRegistry', () => {
  it('puts, lists by id and deletes rows, each write stamping updated_at', async () => {
    const { registry: r } = await registry();
    expect(await r.list()).toEqual([]);
    const before = Date.now();
    const written = await r.put({ id: 'zeta', handler: 'demo', card: { name: 'Zeta', skills: [] }, settings: { chunkDelayMs: 0 } });
    await r.put({ id: 'alpha', handler: 'module', enabled: false });
    const rows = await r.list();
    expect(rows.map((row) => row.id)).toEqual(['alpha', 'zeta']);
    expect(rows[1]).toEqual(written);
    expect(rows[1]).toMatchObject({ handler: 'demo', card: { name: 'Zeta', skills: [] }, settings: { chunkDelayMs: 0 }, enabled: true });
    expect(rows[1]!.cardBytes).toBe(Buffer.byteLength(JSON.stringify({ name: 'Zeta', skills: [] })));
    expect(Date.parse(rows[1]!.updatedAt)).toBeGreaterThanOrEqual(before);
    expect(rows[0]).toMatchObject({ handler: 'module', card: {}, settings: {}, enabled: false });

    await waitFor(() => Date.now() > Date.parse(written.updatedAt), { what: 'the clock to move past the first write' });
    const rewritten = await r.put({ id: 'zeta', handler: 'demo', card: { name: 'Zeta 2' } });
    expect(rewritten.updatedAt > written.updatedAt).toBe(true);
    expect((await r.list()).find((row) => row.id === 'zeta')).toMatchObject({ card: { name: 'Zeta 2' }, updatedAt: rewritten.updatedAt });

    await r.delete('zeta');
    await r.delete('never-there');
    expect((await r.list()).map((row) => row.id)).toEqual(['alpha']);
  });

  it('returns a card over maxCardBytes as {} with its size, and counts bytes, not characters', async () => {
    const { registry: r } = await registry();
    const card = { name: 'Größe', description: 'é'.repeat(600) };
    const bytes = Buffer.byteLength(JSON.stringify(card));
    expect(bytes).toBeGreaterThan(JSON.stringify(card).length);
    await r.put({ id: 'big', handler: 'demo', card });
    expect((await r.list({ maxCardBytes: bytes - 1 }))[0]).toMatchObject({ card: {}, cardBytes: bytes });
    expect((await r.list({ maxCardBytes: bytes }))[0]).toMatchObject({ card, cardBytes: bytes });
    expect((await r.list())[0]).toMatchObject({ card, cardBytes: bytes });
  });

  it('reads every Query page, and shares the table with tasks without either seeing the other', async () => {
    const { table, registry: r } = await registry();
    const tasks = new DynamoTaskStore(local().client, { table });
    await tasks.save(stored('a2a-agents', '2026-01-01T00:00:00.000Z'));
    // Four cards of 300 KB: over the 1 MB a Query page holds.
    const ids = ['a', 'b', 'c', 'd'];
    for (const id of ids) await r.put({ id, handler: 'demo', card: { name: id, description: id.repeat(300_000) } });
    const rows = await r.list({ maxCardBytes: 1024 });
    expect(rows.map((row) => row.id)).toEqual(ids);
    expect(rows.every((row) => row.cardBytes > 300_000 && Object.keys(row.card).length === 0)).toBe(true);
    expect((await tasks.list({ tenant: '', pageSize: 10, pageToken: '' })).tasks.map((t) => t.task.id)).toEqual(['a2a-agents']);
    // The partition really spans pages: one Query stops before the end.
    const page = await local().client.send(
      new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': { S: '["a2a-agents"]' } } }),
    );
    expect(page.LastEvaluatedKey).toBeDefined();
  });

  it('skips an item whose card is not a JSON object, and serves the others', async () => {
    const { table, registry: r } = await registry();
    await r.put({ id: 'good', handler: 'demo' });
    await local().client.send(
      new PutItemCommand({
        TableName: table,
        Item: {
          pk: { S: '["a2a-agents"]' },
          sk: { S: 'agent#bad' },
          handler: { S: 'demo' },
          card: { S: '[1]' },
          enabled: { BOOL: true },
          updated_at: { S: new Date().toISOString() },
        },
      }),
    );
    expect((await r.list()).map((row) => row.id)).toEqual(['good']);
  });

  it('watch calls onChange every pollMs until closed', async () => {
    const { registry: r } = await registry(20);
    const calls: string[] = [];
    const watch = r.watch((why) => calls.push(why));
    await waitFor(() => calls.length >= 3, { what: 'three polls' });
    expect(new Set(calls)).toEqual(new Set(['poll']));
    await watch.close();
    const faster: string[] = [];
    const override = r.watch((why) => faster.push(why), { pollMs: 5 });
    await waitFor(() => faster.length >= 3, { what: 'three polls at the overridden interval' });
    await override.close();
  });
});
