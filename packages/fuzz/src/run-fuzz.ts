import fc from 'fast-check';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import type { BindingFuzzer } from './binding-fuzzer.js';
import { grpcFuzzer } from './grpc-fuzzer.js';
import { describeHeavyCase, heavyCases, heavyCorpus, MAX_HEAVY_BYTES } from './heavy-inputs.js';
import { jsonRpcFuzzer } from './jsonrpc-fuzzer.js';
import type { Finding } from './oracle.js';
import { restFuzzer } from './rest-fuzzer.js';
import { startFuzzTarget, type FuzzTarget } from './target.js';
import { closeFuzzSocket, webSocketFuzzer } from './websocket-fuzzer.js';

/** Every binding's fuzzer, in the order they run. */
// Each fuzzer only ever runs the inputs it drew itself, so erasing the input type is safe.
export const FUZZERS = [jsonRpcFuzzer, restFuzzer, grpcFuzzer, webSocketFuzzer] as unknown as ReadonlyArray<BindingFuzzer<unknown>>;

/** How long a run is and what it tolerates. */
export interface FuzzOptions {
  /** Inputs per binding per round. */
  readonly casesPerBinding: number;
  /** Rounds; RSS at the end of the last is compared with the end of round 2 (round 1 with fewer than 3 rounds). */
  readonly rounds: number;
  /** fast-check seed: the same seed draws the same inputs. */
  readonly seed: number;
  /** Most RSS growth from the baseline round to the last round (see `rounds`; after a GC each). */
  readonly maxRssGrowthBytes: number;
  /**
   * Heavy sends per binding in the resource phase (deep, wide and large, both generations,
   * streamed and not; see heavy-inputs.ts): the fixed corpus first (one of each shape and
   * field, 14 cases), then random draws. 0 skips the phase.
   */
  readonly heavyCasesPerBinding: number;
  /** Largest heavy send (default 3 MiB, just under the default 4 MiB request limit). */
  readonly maxHeavyBytes?: number;
  /**
   * What the memory the process holds after the resource phase (V8 heap used plus external
   * memory, after a forced GC) may exceed the target's configured budgets by, over what it
   * held before the first input.
   */
  readonly maxHeldOverBudgetBytes: number;
  /**
   * The same for RSS, with room for what the allocators keep after the garbage is freed: the
   * fuzzer's own megabyte requests and answers share the process, and freed malloc and V8 pages
   * are not all returned to the system at once. A leak of the size the budgets exist against
   * (gigabytes) still shows.
   */
  readonly maxRssOverBudgetBytes: number;
  /** Progress lines (one per binding and round). */
  readonly log?: (line: string) => void;
}

/** Memory after a round (after a forced GC when available). */
export interface RoundMemory {
  readonly round: number;
  readonly rssBytes: number;
  readonly heapUsedBytes: number;
}

/** Memory as the resource oracle reads it (after a forced GC). */
export interface HeldMemory {
  readonly rssBytes: number;
  /** V8 heap used plus external memory (Buffers): what the process still holds. */
  readonly heldBytes: number;
}

/** What a run did and found. */
export interface FuzzReport {
  readonly seed: number;
  readonly findings: readonly Finding[];
  /** Inputs sent per binding (all rounds). */
  readonly cases: Readonly<Record<string, number>>;
  /** Time spent per binding (all rounds), ms. */
  readonly durationMs: Readonly<Record<string, number>>;
  readonly memory: readonly RoundMemory[];
  /** RSS at the end of the last round minus at the end of the baseline round (see `rounds`). */
  readonly rssGrowthBytes: number;
  /** The resource phase's memory: before the first input and after the heavy sends (after a GC each), and the limits. */
  readonly resource?: {
    readonly before: HeldMemory;
    readonly after: HeldMemory;
    readonly limits: HeldMemory;
    readonly heavyCases: number;
  };
}

/**
 * Runs every binding's fuzzer against one executor on loopback, `rounds` times
 * `casesPerBinding` inputs each, and reports every finding: bad answers (see `oracle.ts`),
 * errors the server logged, uncaught exceptions and rejections in the process, and RSS that
 * keeps growing across rounds.
 */
export async function runFuzz(options: FuzzOptions): Promise<FuzzReport> {
  const gc = exposeGc();
  const findings: Finding[] = [];
  const crash = (kind: string) => (error: unknown) => findings.push({ binding: 'process', kind: 'crash', detail: `${kind}: ${String(error)}`, input: '' });
  const onException = crash('uncaughtException');
  const onRejection = crash('unhandledRejection');
  process.on('uncaughtException', onException);
  process.on('unhandledRejection', onRejection);
  const target = await startFuzzTarget();
  const cases: Record<string, number> = {};
  const durationMs: Record<string, number> = {};
  const memory: RoundMemory[] = [];
  let resource: FuzzReport['resource'];
  try {
    gc?.();
    const memoryBefore = heldMemory();
    const known = await seedTasks(target);
    for (let round = 1; round <= options.rounds; round++) {
      for (const [index, fuzzer] of FUZZERS.entries()) {
        const started = performance.now();
        const inputs = fc.sample(fuzzer.inputs(known), { numRuns: options.casesPerBinding, seed: options.seed + round * 1000 + index });
        let found = 0;
        for (const input of inputs) {
          const result = await fuzzer.run(input, target);
          found += result.length;
          findings.push(...result);
        }
        for (const line of target.loggedErrors.splice(0))
          findings.push({ binding: fuzzer.name, kind: 'server-error', detail: `the server logged an error: ${line}`, input: '' });
        const ms = performance.now() - started;
        cases[fuzzer.name] = (cases[fuzzer.name] ?? 0) + inputs.length;
        durationMs[fuzzer.name] = (durationMs[fuzzer.name] ?? 0) + ms;
        options.log?.(`round ${round} ${fuzzer.name}: ${inputs.length} inputs, ${found} findings, ${Math.round(ms)} ms`);
      }
      gc?.();
      const usage = process.memoryUsage();
      memory.push({ round, rssBytes: usage.rss, heapUsedBytes: usage.heapUsed });
      options.log?.(`round ${round} memory: rss ${mb(usage.rss)}, heap used ${mb(usage.heapUsed)}`);
    }
    if (options.heavyCasesPerBinding > 0) resource = await resourcePhase(target, options, findings, cases, durationMs, memoryBefore, gc);
  } finally {
    closeFuzzSocket(target);
    await target.close();
    process.off('uncaughtException', onException);
    process.off('unhandledRejection', onRejection);
  }
  // The baseline is the end of round 2 when there are 3 rounds or more: the first rounds fill
  // the store, the event log and the allocator's pools up to their working size.
  const baseline = memory[memory.length >= 3 ? 1 : 0];
  const last = memory[memory.length - 1];
  const rssGrowthBytes = baseline && last ? last.rssBytes - baseline.rssBytes : 0;
  if (baseline && rssGrowthBytes > options.maxRssGrowthBytes) {
    findings.push({
      binding: 'process',
      kind: 'memory',
      detail: `RSS grew ${mb(rssGrowthBytes)} from round ${baseline.round} to round ${options.rounds} (limit ${mb(options.maxRssGrowthBytes)})`,
      input: '',
    });
  }
  return { seed: options.seed, findings, cases, durationMs, memory, rssGrowthBytes, ...(resource && { resource }) };
}

/**
 * The resource oracle: heavy sends on every binding (each answer judged by size as well as by
 * the usual rules), then one look at memory. After a forced GC, what the process holds (heap
 * used + external) and its RSS must stay within their values before the first input plus the
 * target's configured budgets plus each one's margin: what the heavy sends leave behind is
 * what the budgets let the server keep, nothing more.
 */
async function resourcePhase(
  target: FuzzTarget,
  options: FuzzOptions,
  findings: Finding[],
  cases: Record<string, number>,
  durationMs: Record<string, number>,
  before: HeldMemory,
  gc: (() => void) | undefined,
): Promise<NonNullable<FuzzReport['resource']>> {
  const maxBytes = options.maxHeavyBytes ?? MAX_HEAVY_BYTES;
  const corpus = heavyCorpus(maxBytes).slice(0, options.heavyCasesPerBinding);
  const random = options.heavyCasesPerBinding - corpus.length;
  const drawn = [...corpus, ...(random > 0 ? fc.sample(heavyCases(maxBytes), { numRuns: random, seed: options.seed + 7 }) : [])];
  for (const [index, fuzzer] of FUZZERS.entries()) {
    const started = performance.now();
    let found = 0;
    for (const [n, c] of drawn.entries()) {
      // Unique ids per binding and case, so no send is a follow-up or a retry of another.
      const sent = performance.now();
      const result = await fuzzer.run(fuzzer.heavy({ ...c, salt: index * 1_000_000 + n }), target);
      const took = performance.now() - sent;
      if (took > 1000) options.log?.(`resource ${fuzzer.name}: ${describeHeavyCase(c)} took ${Math.round(took)} ms`);
      for (const f of result) findings.push({ ...f, input: `${describeHeavyCase(c)} ${f.input}` });
      found += result.length;
    }
    for (const line of target.loggedErrors.splice(0))
      findings.push({ binding: fuzzer.name, kind: 'server-error', detail: `the server logged an error: ${line}`, input: '(heavy sends)' });
    const ms = performance.now() - started;
    const name = `${fuzzer.name} (heavy)`;
    cases[name] = drawn.length;
    durationMs[name] = ms;
    options.log?.(`resource ${fuzzer.name}: ${drawn.length} heavy sends, ${found} findings, ${Math.round(ms)} ms`);
  }
  gc?.();
  const after = heldMemory();
  const limits: HeldMemory = {
    rssBytes: before.rssBytes + target.memoryBudgetBytes + options.maxRssOverBudgetBytes,
    heldBytes: before.heldBytes + target.memoryBudgetBytes + options.maxHeldOverBudgetBytes,
  };
  options.log?.(
    `resource memory: held ${mb(before.heldBytes)} before, ${mb(after.heldBytes)} after (limit ${mb(limits.heldBytes)}); rss ${mb(before.rssBytes)} before, ${mb(after.rssBytes)} after (limit ${mb(limits.rssBytes)})`,
  );
  const over = (what: string, key: keyof HeldMemory, margin: number) =>
    findings.push({
      binding: 'process',
      kind: 'memory',
      detail: `${what} ${mb(after[key])} after ${drawn.length} heavy sends per binding, over ${mb(limits[key])} (${mb(before[key])} before + budgets ${mb(target.memoryBudgetBytes)} + margin ${mb(margin)})`,
      input: '',
    });
  if (after.heldBytes > limits.heldBytes) over('held memory (heap used + external)', 'heldBytes', options.maxHeldOverBudgetBytes);
  if (after.rssBytes > limits.rssBytes) over('RSS', 'rssBytes', options.maxRssOverBudgetBytes);
  return { before, after, limits, heavyCases: drawn.length };
}

/** The process's memory now (call after a GC). */
function heldMemory(): HeldMemory {
  const usage = process.memoryUsage();
  return { rssBytes: usage.rss, heldBytes: usage.heapUsed + usage.external };
}

/** Creates a finished, an interrupted and a failed task, so fuzzed ids can name real tasks. */
async function seedTasks(target: FuzzTarget): Promise<string[]> {
  const ids: string[] = [];
  for (const text of ['hello', 'ask', 'fail']) {
    const response = await fetch(target.jsonRpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'SendMessage',
        params: { message: { messageId: `seed-${text}`, role: 'ROLE_USER', parts: [{ text }] } },
      }),
    });
    const body = (await response.json()) as { result?: { task?: { id?: string; contextId?: string } } };
    if (body.result?.task?.id) ids.push(body.result.task.id);
    if (body.result?.task?.contextId) ids.push(body.result.task.contextId);
  }
  return ids;
}

/** `global.gc` without `--expose-gc` on the command line (jest workers have none). */
function exposeGc(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined;
  }
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}
