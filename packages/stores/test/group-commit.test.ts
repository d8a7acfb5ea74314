/**
 * Group commit (issue 14 item 5): an agent that reports a burst of events in one turn
 * (submitted → working → artifact → completed) costs one store write and one event-log append
 * in durable mode, not one per event; and after the burst the stored task and the event log
 * agree (every event, in order, the store at the log's last seq). Round trips are counted
 * through wrappers around the pg pool and the Redis command connection.
 */
import {
  callContext,
  InMemoryEventLog,
  versionConflict,
  LocalTaskSignals,
  RequestHandler,
  silentLogger,
  taskLogKey,
  type AgentExecutor,
  type EventLog,
  type TaskStore,
} from '@a2a-polyglot/core';
import { TaskState, type Task } from '@a2a-polyglot/model';
import { createPostgresPool, migratePostgres, PostgresTaskStore } from '@a2a-polyglot/stores/postgres';
import { RedisConnections, RedisEventLog, RedisTaskSignals } from '@a2a-polyglot/stores/redis';
import { migrateSqlite, openSqlite, SqliteTaskStore } from '@a2a-polyglot/stores/sqlite';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pool } from 'pg';
import { waitFor, testAgentCard, userSend } from '@a2a-polyglot/testing';
import { deleteKeys, describeWithPostgresAndRedis, POSTGRES_URL, REDIS_URL, uniqueName } from './services.js';

jest.setTimeout(30_000);

/** The benchmark's `task` mode: four events in one turn. */
const burst: AgentExecutor = {
  async execute(ctx) {
    ctx.submit();
    ctx.working();
    ctx.artifact({ name: 'result', text: `echo ${ctx.text}`, lastChunk: true });
    ctx.complete();
  },
};

const CARD = testAgentCard({ capabilities: { streaming: true, pushNotifications: false, extendedAgentCard: false, extensions: [] } });

const ctx = () => callContext('IN-PROCESS', { 'a2a-version': '1.0' });

/** Counts the calls of `object[method]` (the original still runs). */
function countCalls<T extends object>(object: T, method: keyof T, onCall: (args: unknown[]) => void): void {
  const original = (object[method] as (...args: unknown[]) => unknown).bind(object);
  (object as Record<keyof T, unknown>)[method] = (...args: unknown[]) => {
    onCall(args);
    return original(...args);
  };
}

/** Sends one burst task and returns it, once the run has ended (every write done). */
async function sendBurst(handler: RequestHandler, text: string): Promise<Task> {
  const answer = await handler.sendMessage(userSend(text), ctx());
  expect(answer.payload?.$case).toBe('task');
  const task = (answer.payload as { value: Task }).value;
  expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  await waitFor(() => handler.activeRuns === 0);
  return task;
}

/** The log holds the burst's four events under seq 1..4, in order, and the store is at seq 4. */
async function expectConsistent(store: TaskStore, log: EventLog, task: Task): Promise<void> {
  const read = await log.readAfter(taskLogKey('', task.id), 0);
  expect(read.gap).toBe(false);
  expect(read.events.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  expect(read.events.map((e) => e.event.payload?.$case)).toEqual(['task', 'statusUpdate', 'artifactUpdate', 'statusUpdate']);
  const stored = await store.get('', task.id);
  expect(stored?.version).toBe(4);
  expect(stored?.task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
  expect(stored?.task.artifacts.map((a) => a.parts[0]?.content?.value)).toEqual([`echo ${task.history[0]?.parts[0]?.content?.value}`]);
}

describeWithPostgresAndRedis('group commit on PostgreSQL + Redis', () => {
  const schema = uniqueName('a2a_group');
  let pool: Pool;
  let redis: RedisConnections;
  let handler: RequestHandler;
  let store: PostgresTaskStore;
  let log: RedisEventLog;
  const queries: string[] = [];
  const commands: string[] = [];

  beforeAll(async () => {
    pool = createPostgresPool({ url: POSTGRES_URL!, maxConnections: 4 });
    await migratePostgres(pool, { schema });
    redis = await RedisConnections.connect({ url: REDIS_URL! });
    countCalls(pool, 'query', (args) => queries.push(String(args[0]).trim().split(/\s+/)[0]!));
    countCalls(redis.commands, 'sendCommand', (args) => commands.push((args[0] as { name: string }).name));
    store = new PostgresTaskStore(pool, { schema });
    log = new RedisEventLog(redis, { prefix: schema });
    handler = new RequestHandler({
      card: CARD,
      executor: burst,
      logger: silentLogger,
      taskStore: store,
      eventLog: log,
      cluster: { instanceId: 'group', signals: new RedisTaskSignals(redis, { prefix: schema }) },
    });
  });

  afterAll(async () => {
    await handler.shutdown(0);
    await pool.query(`DROP SCHEMA "${schema}" CASCADE`).catch(() => undefined);
    await deleteKeys(redis, schema).catch(() => undefined);
    await Promise.all([pool.end(), redis.close()]);
  });

  it('saves a four-event burst with one PostgreSQL write and one Redis append that seals the log, store and log consistent', async () => {
    await sendBurst(handler, 'warm-up');
    queries.length = 0;
    commands.length = 0;
    const task = await sendBurst(handler, 'burst');
    // Printed for the issue note: the round trips of one task.
    console.log(`round trips per burst task: PostgreSQL ${queries.length} [${queries.join(', ')}], Redis ${commands.length} [${commands.join(', ')}]`);
    expect(queries).toEqual(['INSERT']);
    // One Lua append that also seals the log (no separate PEXPIRE).
    expect(commands).toEqual(['eval']);
    const ttl = await redis.commands.pttl(`${schema}:log:/${task.id}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000); // the retention, not the 24 h idle expiry
    await expectConsistent(store, log, task);
  });
});

describe('group commit on SQLite', () => {
  let dir: string;
  let db: ReturnType<typeof openSqlite>;
  let handler: RequestHandler;
  let store: SqliteTaskStore;
  const log = new InMemoryEventLog();
  let saves = 0;

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'a2a-group-'));
    db = openSqlite(join(dir, 'tasks.db'));
    migrateSqlite(db);
    store = new SqliteTaskStore(db);
    countCalls(store, 'save', () => saves++);
    // The in-memory log drops a finished log nobody read at once; kept here to inspect it.
    log.seal = () => undefined;
    handler = new RequestHandler({
      card: CARD,
      executor: burst,
      logger: silentLogger,
      taskStore: store,
      eventLog: log,
      cluster: { instanceId: 'group', signals: new LocalTaskSignals() },
    });
  });

  afterAll(async () => {
    await handler.shutdown(0);
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('saves a four-event burst in one write, store and log consistent', async () => {
    const task = await sendBurst(handler, 'burst');
    console.log(`SQLite writes per burst task: ${saves}`);
    expect(saves).toBe(1);
    await expectConsistent(store, log, task);
  });

  it('a burst whose one save loses the version check is neither stored, logged nor announced', async () => {
    const losing = new SqliteTaskStore(db);
    const refused: string[] = [];
    losing.save = async (stored) => {
      refused.push(stored.task.id);
      throw versionConflict(stored.task.id);
    };
    const lostLog = new InMemoryEventLog();
    lostLog.seal = () => undefined;
    const announced: unknown[] = [];
    const lost = new RequestHandler({
      card: CARD,
      executor: burst,
      logger: silentLogger,
      taskStore: losing,
      eventLog: lostLog,
      cluster: { instanceId: 'lost', signals: new LocalTaskSignals() },
      observer: { operationStarted: () => ({ done: () => undefined }), taskStateEntered: (state: TaskState) => announced.push(state) },
    });
    await lost.sendMessage(userSend('lost'), ctx()).catch(() => undefined);
    await waitFor(() => lost.activeRuns === 0);
    await lost.shutdown(0);
    // One write for the four events; it lost, so the log has none of them and nobody heard of them.
    expect(refused).toHaveLength(1);
    expect((await lostLog.readAfter(taskLogKey('', refused[0]!), 0)).events).toEqual([]);
    expect(announced).toEqual([]);
    expect(await store.get('', refused[0]!)).toBeUndefined();
  });
});
