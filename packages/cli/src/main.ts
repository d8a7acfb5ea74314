#!/usr/bin/env node
/**
 * The `a2a` process entry: runs the command line, maps Ctrl-C to an orderly abort (a second
 * Ctrl-C exits at once), and exits with the command's code.
 */
import { processIo } from './io.js';
import { run } from './run.js';

const controller = new AbortController();
process.on('SIGINT', () => {
  if (controller.signal.aborted) process.exit(130);
  controller.abort();
});

run(process.argv.slice(2), processIo(), controller.signal).then(
  (code) => {
    process.exitCode = code;
    // Open handles (a gRPC channel shutting down) must not keep a finished command alive.
    setTimeout(() => process.exit(code), 200).unref();
  },
  (error: unknown) => {
    process.stderr.write(`a2a: unexpected failure: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
