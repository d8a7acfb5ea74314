/**
 * @a2a-polyglot/cli — the `a2a` command-line client. The bin (`bin/a2a.js` → `dist/main.js`)
 * is the usual entry; `run(argv, io, signal)` runs a command line in-process.
 */
export { run, VERSION } from './run.js';
export { EXIT, type ExitCode } from './exit-codes.js';
export { HELP } from './help.js';
export { processIo, type Io } from './io.js';
