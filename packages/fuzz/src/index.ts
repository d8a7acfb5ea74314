/**
 * @a2a-polyglot/fuzz — a bounded fuzz run of every binding against a real executor on
 * loopback (`npm run fuzz` for the long run; `test/fuzz.test.ts` is the short run inside
 * `npm test`). Test-only, like `@a2a-polyglot/testing`: run from sources by jest.
 */
export { runFuzz, FUZZERS, type FuzzOptions, type FuzzReport, type RoundMemory } from './run-fuzz.js';
export { leaks, SLOW_ANSWER_MS, type Finding } from './oracle.js';
export { startFuzzTarget, type FuzzTarget } from './target.js';
