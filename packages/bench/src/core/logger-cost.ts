/**
 * The per-request cost of the executor's logger on the core path, in process: CPU µs per
 * SendMessage → Task (the bench agent's `task` mode) through the OPERATIONS table, each call
 * with a fresh call context built the way the bindings build it (`callContext` with the
 * binding's logger: binding, reqId; the core adds operation, traceId, taskId). The logger is
 * the executor's pino (`createLogger`, redaction on) writing JSON lines to a sink that drops
 * them, at each level given, against the silent logger. Run from sources, no build needed:
 *   node --expose-gc scripts/run-ts.js packages/bench/src/core/logger-cost.ts [calls] [reps] [levels]
 * Prints one line per level: the median and every window's µs per call.
 */
import { callContext, InMemoryTaskStore, OPERATIONS, RequestHandler, silentLogger, type Logger } from '@a2a-polyglot/core';
import { createLogger } from '@a2a-polyglot/executor';
import { AgentCard } from '@a2a-polyglot/model';
import { createOursBenchAgent } from '../agents/ours-agent.js';
import { agentModeText } from '../agents/agent-mode.js';
import { measureCase } from './measure.js';

const calls = Number(process.argv[2] ?? 20_000);
const reps = Number(process.argv[3] ?? 5);
const levels = (process.argv[4] ?? 'silent,warn,info').split(',');
const HEADERS = { 'a2a-version': '1.0', 'content-type': 'application/json' };

async function costOf(logger: Logger): Promise<number[]> {
  const handler = new RequestHandler({
    card: AgentCard.fromPartial({ name: 'logger cost', capabilities: { streaming: true } }),
    executor: createOursBenchAgent(),
    taskStore: new InMemoryTaskStore(),
    logger,
  });
  const op = OPERATIONS.SendMessage;
  if (op.kind !== 'unary') throw new Error('SendMessage is unary');
  const text = agentModeText({ kind: 'task' });
  const figures = await measureCase(
    async (i) => {
      const ctx = callContext('JSONRPC', HEADERS, { logger });
      const request = op.request.fromPartial({ message: { messageId: `m-${i}`, role: 1, parts: [{ content: { $case: 'text', value: text } }] } });
      await op.invoke(handler, request, ctx);
    },
    { calls, warmupCalls: Math.ceil(calls / 2), reps, unitsPerCall: 1 },
  );
  return [...figures.perUnitUs];
}

async function main(): Promise<void> {
  const sink = { write: (_line: string) => undefined };
  for (const level of levels) {
    const logger = level === 'silent' ? silentLogger : createLogger(level as 'debug' | 'info' | 'warn' | 'error', sink, 'json');
    const us = await costOf(logger);
    const median = [...us].sort((a, b) => a - b)[Math.floor(us.length / 2)] ?? Number.NaN;
    console.log(`${level.padEnd(6)} median ${median.toFixed(2)} µs/call  windows ${us.map((u) => u.toFixed(2)).join(' ')}`);
  }
}

void main();
