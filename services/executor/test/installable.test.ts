/**
 * "Use it outside this repository" (root README), for real: `npm run pack`'s tarballs are
 * installed into an empty folder outside the clone (offline, see packed-project.ts), and
 * there `npx a2a-executor` serves the README's agent module, `npx a2a card` / `npx a2a send`
 * talk to it, and the README's client.mjs runs as written. Also: every public package loads
 * from its tarball (no dev dependency needed at run time), and inside the clone the three
 * bins are committed files that npm links at `npm ci`, before any build.
 *
 * Needs the built packages: the pack script runs turbo's build first, a cache hit after
 * `turbo run build` (which CI runs first). Packing and installing take about 10 s.
 */
import { waitFor } from '@a2a-polyglot/testing';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { installPacked, type PackedPackage } from './packed-project.js';

const root = path.resolve(__dirname, '../../..');
/**
 * The README's agent module that the packed executor serves, by its first line's file name.
 * Switching to a TypeScript module that exports its own card is this line (`'agent.ts'`),
 * once the README shows that block.
 */
const AGENT_FILE = 'agent.ts';
/** The README's client example. */
const CLIENT_FILE = 'client.mjs';
/** The address the README's examples use; replaced by the test executor's own. */
const README_URL = 'http://127.0.0.1:8080';

const execFileAsync = promisify(execFile);
let work: string;
let project: string;
let packed: PackedPackage[];
let executor: ChildProcess | undefined;
let executorOut = '';

/** The README's ```js block whose first line is `// <file>` (the comment may go on after a colon). */
function readmeBlock(file: string): string {
  const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
  const block = [...readme.matchAll(/```(?:js|ts)\n([\s\S]*?)```/g)]
    .map((m) => m[1]!)
    .find((code) => new RegExp(`^// ${file.replace('.', '\\.')}\\b`).test(code));
  if (block === undefined) throw new Error(`README.md has no js or ts block starting with "// ${file}"`);
  return block;
}

/** Runs `npx <args>` in `cwd` as a user would (npm sets npm_command=exec); resolves with its output and exit code. */
async function npx(cwd: string, args: readonly string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await execFileAsync('npx', [...args], { cwd, env: userEnv(), maxBuffer: 16 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** The environment of a user's shell: none of the npm_* variables of the `npm test` around jest. */
function userEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !/^npm_/i.test(name)));
}

/** Starts `npx a2a-executor <args>` in the project on a free port; returns its URL. */
async function startExecutor(args: readonly string[]): Promise<string> {
  // Its own process group, so the npx process and the node it starts stop together.
  executor = spawn('npx', ['a2a-executor', ...args], {
    cwd: project,
    env: { ...userEnv(), PORT: '0', GRPC_PORT: 'off', LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  executor.stdout!.on('data', (d: Buffer) => (executorOut += d.toString()));
  executor.stderr!.on('data', (d: Buffer) => (executorOut += d.toString()));
  const line = () => executorOut.split('\n').find((l) => l.includes('listening on'));
  await waitFor(
    () => {
      if (executor!.exitCode !== null) throw new Error(`npx a2a-executor exited (${executor!.exitCode}): ${executorOut}`);
      return line() !== undefined;
    },
    { timeoutMs: 30_000, intervalMs: 50, what: 'the executor startup line' },
  );
  return JSON.parse(line()!).url as string;
}

describe('the packed packages, installed into an empty folder outside the clone', () => {
  beforeAll(() => {
    work = mkdtempSync(path.join(tmpdir(), 'a2a-installable-'));
    const packDir = path.join(work, 'dist-packages');
    const listing = execFileSync(process.execPath, [path.join(root, 'scripts/pack.mjs'), '--out', packDir], { cwd: root, encoding: 'utf8', env: userEnv() });
    packed = listing
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.endsWith('.tgz'))
      .map((tarball) => ({ tarball, name: `@a2a-polyglot/${tarball.replace(/^a2a-polyglot-/, '').replace(/-\d+\.\d+\.\d+\.tgz$/, '')}` }));
    project = path.join(work, 'my-agent');
    mkdirSync(project);
    installPacked(root, packDir, project, packed);
    writeFileSync(path.join(project, AGENT_FILE), readmeBlock(AGENT_FILE));
  }, 300_000);

  afterAll(async () => {
    if (executor?.pid !== undefined && executor.exitCode === null) {
      const exited = new Promise((resolve) => executor!.once('exit', resolve));
      process.kill(-executor.pid, 'SIGTERM');
      await exited;
    }
    if (work) rmSync(work, { recursive: true, force: true });
  });

  it('packs every public workspace, and only those', () => {
    const names = packed.map((p) => p.name);
    expect(names).toContain('@a2a-polyglot/executor');
    expect(names).toContain('@a2a-polyglot/cli');
    expect(names).toContain('@a2a-polyglot/client');
    expect(names).not.toContain('@a2a-polyglot/testing');
    expect(names).not.toContain('@a2a-polyglot/bench');
    expect(names.length).toBeGreaterThanOrEqual(20);
  });

  it('loads every package from its tarball, with no dev dependency installed', async () => {
    const code = `for (const name of ${JSON.stringify(packed.map((p) => p.name))}) require(name); console.log('ok')`;
    const { stdout } = await execFileAsync(process.execPath, ['-e', code], { cwd: project });
    expect(stdout.trim()).toBe('ok');
    for (const devOnly of ['jest', 'typescript', '@a2a-polyglot/testing', 'better-sqlite3'])
      expect(existsSync(path.join(project, 'node_modules', devOnly))).toBe(false);
  });

  it('runs the README example: npx a2a-executor serves agent.ts with its own card, npx a2a and client.mjs talk to it', async () => {
    const url = await startExecutor(['--agent-module', `./${AGENT_FILE}`]);
    expect(executorOut).toContain(path.join(project, AGENT_FILE));

    const card = await npx(project, ['a2a', 'card', url]);
    expect(card).toMatchObject({ code: 0 });
    expect(card.stdout).toContain(`${url}/a2a/rpc`);
    expect(card.stdout).toContain('Say-back Agent');
    expect(card.stdout).not.toContain('Demo Agent');

    const sent = await npx(project, ['a2a', 'send', url, 'hello from outside']);
    expect(sent).toMatchObject({ code: 0, stdout: 'You said: hello from outside\n' });

    writeFileSync(path.join(project, CLIENT_FILE), readmeBlock(CLIENT_FILE).replaceAll(README_URL, url));
    const { stdout } = await execFileAsync(process.execPath, [CLIENT_FILE], { cwd: project });
    expect(stdout).toBe('You said: hello from code\n');
  }, 120_000);

  it('npx a2a, npx a2a-executor --help and npx a2a-migrate --help work, and hints say npx a2a', async () => {
    const usage = await npx(project, ['a2a', 'send', README_URL]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("Run 'npx a2a send --help' for usage.");
    expect((await npx(project, ['a2a', '--help'])).stdout).toContain('Usage: a2a <command>');
    expect((await npx(project, ['a2a-executor', '--help'])).stdout).toMatch(/^Usage: a2a-executor /);
    expect((await npx(project, ['a2a-migrate', '--help'])).stdout).toMatch(/^Usage: a2a-migrate /);
  }, 120_000);
});

describe('the bins inside the clone', () => {
  const bins = [
    { dir: 'packages/cli', name: 'a2a', usage: /Usage: a2a <command>/ },
    { dir: 'services/executor', name: 'a2a-executor', usage: /^Usage: a2a-executor / },
    { dir: 'packages/stores', name: 'a2a-migrate', usage: /^Usage: a2a-migrate / },
  ];

  it.each(bins)('$name is a committed file outside dist/, so npm ci links it before any build', ({ dir, name }) => {
    const manifest = JSON.parse(readFileSync(path.join(root, dir, 'package.json'), 'utf8')) as { bin: Record<string, string>; files: string[] };
    const target = manifest.bin[name]!;
    expect(target).toMatch(/^bin\//);
    expect(manifest.files).toContain('bin');
    expect(readFileSync(path.join(root, dir, target), 'utf8')).toContain('buildOnFirstRun(');
    expect(existsSync(path.join(root, 'node_modules/.bin', name))).toBe(true);
  });

  it.each(bins)(
    'npx $name --help runs at the repository root',
    async ({ name, usage }) => {
      const result = await npx(root, [name, '--help']);
      expect(result).toMatchObject({ code: 0 });
      expect(result.stdout).toMatch(usage);
    },
    60_000,
  );
});
