/**
 * `npm run fuzz`: the long fuzz run, from sources (no build), as its own process.
 *
 *   npm run fuzz -- [--cases N] [--rounds R] [--seed S] [--max-rss-growth-mb M]
 *                   [--heavy-cases H] [--max-held-over-budget-mb B] [--max-rss-over-budget-mb B]
 *
 * Prints one line per binding and round, the memory after each round, every finding and a
 * JSON summary; exits 1 when anything was found.
 */
import { parseArgs } from 'node:util';
import { runFuzz } from './run-fuzz.js';

const { values } = parseArgs({
  options: {
    cases: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '4' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000_007) },
    'max-rss-growth-mb': { type: 'string', default: '64' },
    'heavy-cases': { type: 'string', default: '200' },
    'max-held-over-budget-mb': { type: 'string', default: '128' },
    'max-rss-over-budget-mb': { type: 'string', default: '512' },
  },
});

async function main(): Promise<void> {
  const options = {
    casesPerBinding: Number(values.cases),
    rounds: Number(values.rounds),
    seed: Number(values.seed),
    maxRssGrowthBytes: Number(values['max-rss-growth-mb']) * 1024 * 1024,
    heavyCasesPerBinding: Number(values['heavy-cases']),
    maxHeldOverBudgetBytes: Number(values['max-held-over-budget-mb']) * 1024 * 1024,
    maxRssOverBudgetBytes: Number(values['max-rss-over-budget-mb']) * 1024 * 1024,
  };
  for (const [name, value] of Object.entries(options)) if (!Number.isFinite(value) || value < 0) throw new Error(`--${name} must be a non-negative number`);
  const started = performance.now();
  process.stdout.write(`fuzzing: ${options.rounds} rounds × ${options.casesPerBinding} inputs per binding, seed ${options.seed}\n`);
  const report = await runFuzz({ ...options, log: (line) => process.stdout.write(`${line}\n`) });
  for (const finding of report.findings) process.stdout.write(`FINDING ${finding.binding} ${finding.kind}: ${finding.detail}\n  input: ${finding.input}\n`);
  const summary = {
    seed: report.seed,
    cases: report.cases,
    durationSeconds: Object.fromEntries(Object.entries(report.durationMs).map(([k, v]) => [k, Math.round(v / 100) / 10])),
    totalSeconds: Math.round((performance.now() - started) / 100) / 10,
    rssMiB: report.memory.map((m) => Math.round(m.rssBytes / 104857.6) / 10),
    heapUsedMiB: report.memory.map((m) => Math.round(m.heapUsedBytes / 104857.6) / 10),
    ...(report.resource && {
      resourceHeldMiB: {
        before: mib(report.resource.before.heldBytes),
        after: mib(report.resource.after.heldBytes),
        limit: mib(report.resource.limits.heldBytes),
      },
      resourceRssMiB: { before: mib(report.resource.before.rssBytes), after: mib(report.resource.after.rssBytes), limit: mib(report.resource.limits.rssBytes) },
    }),
    findings: report.findings.length,
  };
  process.stdout.write(`${JSON.stringify(summary)}\n`);
  process.exitCode = report.findings.length > 0 ? 1 : 0;
}

function mib(bytes: number): number {
  return Math.round(bytes / 104857.6) / 10;
}

main().catch((error: unknown) => {
  process.stderr.write(`fuzz: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 2;
});
