/**
 * The package build's last step (`npm run build`): writes the bundled page to dist/web/, so
 * the executor serves it without esbuild at run time.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BUILT_ASSETS_DIR } from './assets.js';
import { bundleInspector, PACKAGE_ROOT } from './bundle.js';

async function main(): Promise<void> {
  const assets = await bundleInspector();
  const dir = join(PACKAGE_ROOT, BUILT_ASSETS_DIR);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'index.html'), assets.html);
  writeFileSync(join(dir, 'inspector.css'), assets.css);
  writeFileSync(join(dir, 'inspector.js'), assets.js);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
