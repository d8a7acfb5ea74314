/**
 * One jest run over every package. Sources are compiled by SWC (fast, no type checks);
 * `npm test` runs `tsc --noEmit` first so type errors still fail the run.
 * Cross-package imports resolve to sources, so tests never need a prior build.
 */
/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services'],
  testMatch: ['**/test/**/*.test.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } }],
    // ES-module-only dependencies, compiled to CommonJS like our sources.
    '/node_modules/eventsource-parser/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
    // The ES-module build of the v0.3 SDK (its CommonJS entries each bundle their own A2AError
    // class, so errors lose their codes across entries); only .js files, the .cjs stay as they are.
    '/node_modules/a2a-sdk-v03/dist/.+\\.js$': ['@swc/jest', { jsc: { target: 'es2022' }, module: { type: 'commonjs' } }],
  },
  transformIgnorePatterns: ['/node_modules/(?!eventsource-parser/|a2a-sdk-v03/dist/.+\\.js$)'],
  moduleNameMapper: {
    '^@a2a-polyglot/executor$': '<rootDir>/services/executor/src/index.ts',
    '^@a2a-polyglot/([a-z0-9-]+)$': '<rootDir>/packages/$1/src/index.ts',
    '^@a2a-polyglot/([a-z0-9-]+)/(.+)$': '<rootDir>/packages/$1/src/$2.ts',
    '^(\\.{1,2}/.*)\\.js$': '$1',
  },
  testTimeout: 20000,
  // Test files run in a worker that is replaced once it holds more than this after a file. On
  // 2 cores jest would otherwise run every file in band, in jest's own process: what each file's
  // servers and clients leave behind piled up to 2.5 GB of live heap, the slow full GCs of such
  // a heap stretched every later test (a 1 MiB gRPC send took 8.7 s there, 1.3 s alone) and the
  // whole run took 1,419 s; with a recycled worker 850 s (fresh clone, same loaded machine).
  workerIdleMemoryLimit: '1GB',
};
