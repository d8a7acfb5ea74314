import { runFuzz } from '../src/index.js';

/**
 * The short fuzz run inside `npm test`: a few seconds per binding, fixed seed. The long run is
 * `npm run fuzz` (src/main.ts, same runner). The environment can lengthen this one too:
 * A2A_FUZZ_CASES (inputs per binding per round), A2A_FUZZ_ROUNDS, A2A_FUZZ_SEED,
 * A2A_FUZZ_MAX_RSS_GROWTH_MB, A2A_FUZZ_HEAVY_CASES (heavy sends per binding in the resource
 * phase), A2A_FUZZ_MAX_HEAVY_BYTES, A2A_FUZZ_MAX_HELD_OVER_BUDGET_MB, A2A_FUZZ_MAX_RSS_OVER_BUDGET_MB; A2A_FUZZ_VERBOSE=1 prints the progress lines.
 */
const env = (name: string, fallback: number) => (process.env[name] ? Number(process.env[name]) : fallback);
const options = {
  casesPerBinding: env('A2A_FUZZ_CASES', 60),
  rounds: env('A2A_FUZZ_ROUNDS', 2),
  seed: env('A2A_FUZZ_SEED', 20_261_201),
  maxRssGrowthBytes: env('A2A_FUZZ_MAX_RSS_GROWTH_MB', 128) * 1024 * 1024,
  heavyCasesPerBinding: env('A2A_FUZZ_HEAVY_CASES', 14),
  // 1 MiB at most here: a 3 MiB send of 130,000 metadata keys costs seconds of CPU on a loaded
  // CI core (a finding of the long run, see the README); the long run sends up to 3 MiB.
  maxHeavyBytes: env('A2A_FUZZ_MAX_HEAVY_BYTES', 1024 * 1024),
  maxHeldOverBudgetBytes: env('A2A_FUZZ_MAX_HELD_OVER_BUDGET_MB', 128) * 1024 * 1024,
  maxRssOverBudgetBytes: env('A2A_FUZZ_MAX_RSS_OVER_BUDGET_MB', 512) * 1024 * 1024,
};

describe('fuzzing every binding against a real executor', () => {
  it(`finds nothing in ${options.rounds} × ${options.casesPerBinding} inputs and ${options.heavyCasesPerBinding} heavy sends per binding (seed ${options.seed})`, async () => {
    const lines: string[] = [];
    const report = await runFuzz({ ...options, log: (line) => lines.push(line) });
    const summary = {
      seed: report.seed,
      cases: report.cases,
      durationMs: Object.fromEntries(Object.entries(report.durationMs).map(([k, v]) => [k, Math.round(v)])),
      rssGrowthMiB: +(report.rssGrowthBytes / 1048576).toFixed(1),
      resource: report.resource,
      findings: report.findings.length,
    };
    if (process.env.A2A_FUZZ_VERBOSE || report.findings.length > 0) process.stdout.write(`${lines.join('\n')}\n${JSON.stringify(summary)}\n`);
    expect(report.findings).toEqual([]);
  }, 600_000_000);
});
