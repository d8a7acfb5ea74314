import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { underCi } from './service-suites.js';

/** Debian's Chromium, or `CHROMIUM_PATH`. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The flags this machine needs: no sandbox (root in a container), no GPU, and none of the
 * background traffic (updates, first-run, networking) that a closed network refuses.
 */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'];

/** A headless Chromium with one page, on a fresh profile that {@link HeadlessChromium.close} removes. */
export interface HeadlessChromium {
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

/**
 * Launches {@link CHROMIUM_PATH} headless on a new user-data dir; the page's waits are bounded by `waitMs`.
 * `args` are added to the flags (e.g. `--host-resolver-rules=MAP rebind.test 127.0.0.1`, so a
 * test can give a loopback server a name of its own, as DNS rebinding does).
 */
export async function launchHeadlessChromium(
  options: { readonly viewport?: { width: number; height: number }; readonly waitMs?: number; readonly args?: readonly string[] } = {},
): Promise<HeadlessChromium> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'a2a-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_ARGS, ...(options.args ?? [])],
      ...(options.viewport ? { viewport: options.viewport } : {}),
      timeout: 30_000,
    });
    const page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(options.waitMs ?? 10_000);
    return {
      context,
      page,
      async close() {
        await context.close();
        rmSync(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * `describe` for suites that drive a real browser, with the rule of the service suites: with
 * Chromium installed the suite runs; without it a local run skips it with a loud notice, and
 * CI fails, because CI must never pass by running nothing.
 */
export function describeWithChromium(name: string, body: () => void): void {
  if (existsSync(CHROMIUM_PATH)) {
    describe(name, body);
    return;
  }
  if (underCi()) {
    describe(name, () => {
      it('has Chromium installed', () => {
        throw new Error(`Chromium is not installed at ${CHROMIUM_PATH} (apt-get install -y chromium, or set CHROMIUM_PATH): "${name}" cannot run under CI`);
      });
    });
    return;
  }
  console.warn(
    `\n!!!!!!!!\n!!! Chromium is not at ${CHROMIUM_PATH}: "${name}" is SKIPPED.\n!!! apt-get install -y chromium (or set CHROMIUM_PATH) to run it; under CI=true it fails instead.\n!!!!!!!!\n`,
  );
  describe.skip(name, body);
}
