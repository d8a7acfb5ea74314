#!/usr/bin/env node
/**
 * `prepack` of every published package: copies the repository's LICENSE (Apache-2.0) into the
 * package folder, so `npm pack` / `npm publish` of a workspace ships it (npm only packs files
 * under the package folder). The copies are git-ignored: the root LICENSE is the one source.
 */
import { copyFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

copyFileSync(fileURLToPath(new URL('../LICENSE', import.meta.url)), 'LICENSE');
