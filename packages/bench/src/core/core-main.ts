/**
 * Entry of the core-budget child: `node core-main.js <json options>`. Builds two request
 * handlers — the bare core (in-memory store, no observer) and the one `startExecutor` builds
 * (metrics observer, timed store: what `npm start` runs) — and measures every core case on
 * both, with no socket on the request path. Prints one JSON line ({@link CoreBudgetChildResult}).
 */
import { callContext, InMemoryTaskStore, RequestHandler, silentLogger, type RequestHandler as Handler } from '@a2a-polyglot/core';
import { AgentCard } from '@a2a-polyglot/model';
import { createOursBenchAgent } from '../agents/ours-agent.js';
import { emitEvent } from '../ipc.js';
import { CORE_CASES } from './cases.js';
import { ENCODE_CASES, ENCODERS, encodeSamples, type EncoderId } from './encode-cases.js';
import { measureCase } from './measure.js';

/** What the orchestrator passes. */
export interface CoreBudgetChildOptions {
  readonly calls: number;
  readonly warmupCalls: number;
  readonly reps: number;
}

/** One case × handler kind. */
export interface CoreBudgetChildRow {
  readonly handler: 'core' | 'executor';
  readonly caseId: string;
  readonly perUnitUs: readonly number[];
  readonly calls: number;
}

/** One encode case × encoder: CPU µs per encoded unit, each repetition. */
export interface EncodeChildRow {
  readonly encoder: EncoderId;
  readonly caseId: string;
  readonly perUnitUs: readonly number[];
  readonly calls: number;
}

export interface CoreBudgetChildResult {
  readonly rows: readonly CoreBudgetChildRow[];
  /** The ProtoJSON encoding cases (absent in results of runs before they existed). */
  readonly encode?: readonly EncodeChildRow[];
  readonly failure?: string;
}

type ExecutorModule = typeof import('@a2a-polyglot/executor');

async function executorHandler(): Promise<{ handler: Handler; close: () => Promise<void> }> {
  const { startExecutor } = require('@a2a-polyglot/executor') as ExecutorModule;
  const running = await startExecutor(
    {
      host: '127.0.0.1',
      port: 0,
      grpcPort: false,
      logLevel: 'error',
      shutdownGraceMs: 0,
      agent: { capabilities: { streaming: true, pushNotifications: false } },
    },
    { executor: createOursBenchAgent(), logger: silentLogger },
  );
  return { handler: running.handler, close: () => running.close() };
}

function bareHandler(): Handler {
  return new RequestHandler({
    card: AgentCard.fromPartial({ name: 'core budget', capabilities: { streaming: true } }),
    executor: createOursBenchAgent(),
    taskStore: new InMemoryTaskStore(),
    logger: silentLogger,
  });
}

async function main(): Promise<void> {
  const options = JSON.parse(process.argv[2] ?? '{}') as CoreBudgetChildOptions;
  const ctx = callContext('IN-PROCESS', { 'a2a-version': '1.0' });
  const rows: CoreBudgetChildRow[] = [];
  const encode: EncodeChildRow[] = [];
  const executor = await executorHandler();
  try {
    for (const [kind, handler] of [
      ['core', bareHandler()],
      ['executor', executor.handler],
    ] as const) {
      for (const c of CORE_CASES) {
        // The stream case's calls carry ~100 events each: 4 × calls / events keeps its window
        // near four unary windows of CPU, enough for a stable per-event figure.
        const calls = c.unitsPerCall > 1 ? Math.max(20, Math.ceil((4 * options.calls) / c.unitsPerCall)) : options.calls;
        const figures = await measureCase((i) => c.run(handler, ctx, i), {
          calls,
          warmupCalls: Math.ceil(calls / 2),
          reps: options.reps,
          unitsPerCall: c.unitsPerCall,
        });
        rows.push({ handler: kind, caseId: c.id, ...figures });
      }
    }
    encode.push(...(await measureEncoding(bareHandler(), ctx, options)));
  } finally {
    await executor.close();
  }
  report({ rows, encode });
}

/**
 * The encode cases: each encoder on the same sample messages, a tenth of the unary calls per
 * window (each call encodes a whole stream's events or 20 Task answers).
 */
async function measureEncoding(handler: Handler, ctx: ReturnType<typeof callContext>, options: CoreBudgetChildOptions): Promise<EncodeChildRow[]> {
  const samples = await encodeSamples(handler, ctx);
  const rows: EncodeChildRow[] = [];
  let chars = 0;
  for (const c of ENCODE_CASES) {
    for (const [encoder] of ENCODERS) {
      const calls = Math.max(50, Math.ceil(options.calls / 10));
      const figures = await measureCase(
        async () => {
          chars += c.run(samples, encoder);
        },
        { calls, warmupCalls: Math.ceil(calls / 2), reps: options.reps, unitsPerCall: c.unitsPerCall },
      );
      rows.push({ encoder, caseId: c.id, ...figures });
    }
  }
  if (chars === 0) throw new Error('the encode cases wrote nothing');
  return rows;
}

/** To the orchestrator over IPC; to stdout when run by hand (`node dist/core/core-main.js '{...}'`). */
function report(result: CoreBudgetChildResult): void {
  if (process.send) emitEvent('result', result);
  else process.stdout.write(`${JSON.stringify(result)}\n`);
  process.disconnect?.();
}

main().catch((error: unknown) => {
  report({ rows: [], failure: (error as Error)?.message ?? String(error) });
  process.exitCode = 1;
});
