import { readFileSync } from 'node:fs';
import { transformSync } from '@swc/core';

/** What a README example may touch besides its imports. */
export interface ReadmeExampleOptions {
  /** Resolves the example's imports; pass the test file's `require` so jest maps packages to sources. */
  readonly load: (name: string) => unknown;
  /** Rewrites the block before it runs (e.g. points a URL at a local server). */
  readonly edit?: (code: string) => string;
  /** Which ```ts block of the README, 0 = the first. */
  readonly index?: number;
}

/**
 * Runs a ```ts block of a README as written and returns the lines it printed with
 * `console.log`, so a test can hold the README to what it claims. The block is compiled by
 * SWC (types stripped, imports turned into `load()` calls) and run inside an async function,
 * so top-level `await` works as in an ES module.
 */
export async function runReadmeExample(readmePath: string, options: ReadmeExampleOptions): Promise<string[]> {
  const readme = readFileSync(readmePath, 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1] ?? '');
  const block = blocks[options.index ?? 0];
  if (block === undefined) throw new Error(`${readmePath} has no \`\`\`ts block number ${options.index ?? 0}`);
  const source = (options.edit ?? ((code: string) => code))(block);
  const js = transformSync(source, {
    filename: 'readme-example.ts',
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
    isModule: true,
  }).code;
  const lines: string[] = [];
  const console = { log: (...args: unknown[]) => lines.push(args.map(String).join(' ')) };
  const run = new Function('require', 'console', 'exports', `return (async () => {\n${js}\n})();`) as (
    require: (name: string) => unknown,
    console: { log: (...args: unknown[]) => void },
    exports: object,
  ) => Promise<void>;
  await run(options.load, console, {});
  return lines;
}
