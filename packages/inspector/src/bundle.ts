import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build, type Plugin } from 'esbuild';
import type { InspectorAssets } from './inspector-assets.js';

/** This package's root (the file is in `src/`, or `dist/` once built: one level down either way). */
export const PACKAGE_ROOT = resolve(__dirname, '..');
/** The monorepo root: the page bundles the client, core and model from their sources. */
const REPO_ROOT = resolve(PACKAGE_ROOT, '../..');

/**
 * `@a2a-polyglot/<pkg>[/<sub>]` → `packages/<pkg>/src/<sub|index>.ts`: the page is built from
 * the workspace sources (as the jest mapper does), so no other package must be built first and
 * a bundle made in a test is never older than the code it runs.
 */
const workspaceSources: Plugin = {
  name: 'a2a-polyglot-sources',
  setup(b) {
    b.onResolve({ filter: /^@a2a-polyglot\// }, (args) => {
      const [, pkg, ...sub] = args.path.split('/');
      if (pkg === undefined || pkg === '') return { errors: [{ text: `no package name in ${args.path}` }] };
      const file = join(REPO_ROOT, 'packages', pkg, 'src', `${sub.length === 0 ? 'index' : sub.join('/')}.ts`);
      return existsSync(file) ? { path: file } : { errors: [{ text: `no sources for ${args.path}` }] };
    });
  },
};

/**
 * Bundles the page (web/main.ts) for browsers with esbuild: one minified IIFE, no Node
 * built-ins (the browser platform fails the build on any), no CDN; plus the HTML and CSS as
 * they are. Used by the package build (dist/web/) and, when running from sources, on demand.
 */
export async function bundleInspector(): Promise<InspectorAssets> {
  const web = join(PACKAGE_ROOT, 'web');
  const result = await build({
    entryPoints: [join(web, 'main.ts')],
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
    plugins: [workspaceSources],
  });
  const js = result.outputFiles[0];
  if (!js) throw new Error('esbuild wrote no output for the inspector page');
  return {
    html: readFileSync(join(web, 'index.html'), 'utf8'),
    css: readFileSync(join(web, 'inspector.css'), 'utf8'),
    js: js.text,
  };
}
