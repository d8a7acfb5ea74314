import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Installed version of a package, found by walking up from its resolved entry to its
 * package.json (some packages do not export `./package.json`). undefined when absent.
 */
export function packageVersion(name: string, entry = name): string | undefined {
  let file: string;
  try {
    file = require.resolve(entry);
  } catch {
    return undefined;
  }
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (!existsSync(pkg)) continue;
    try {
      const json = JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string; version?: string };
      if (json.name === name) return json.version;
    } catch {
      return undefined;
    }
  }
  return undefined;
}
