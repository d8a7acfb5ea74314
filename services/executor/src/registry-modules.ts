import { realpathSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import type { AgentRegistryConfig } from './config/types.js';
import { AgentModuleError, looksLikePath } from './load-agent.js';

/**
 * Which files a `module` row of the agent registry may import: a file inside one of
 * `agentRegistry.moduleDirs`, or a package named exactly as in `agentRegistry.modulePackages`.
 * Why: a row is data anyone with write access to the table can change, and a module runs in
 * the service's process; a row naming an installed command-line script ended the service on
 * import, taking every agent down. With neither key set, module rows are refused.
 *
 * The file is compared after symlinks are resolved (as `require` resolves them), so a link
 * inside an allowed directory to a file outside it is refused. Returns the check
 * `loadAgentModule` runs on the resolved file before importing it; it throws an
 * {@link AgentModuleError} saying why.
 */
export function registryModulePolicy(registry: Pick<AgentRegistryConfig, 'moduleDirs' | 'modulePackages'>): (spec: string, path: string) => void {
  const { moduleDirs, modulePackages } = registry;
  return (spec, path) => {
    if (moduleDirs.length === 0 && modulePackages.length === 0) {
      throw new AgentModuleError(
        `Agent module ${spec} refused: the agent registry loads modules only from agentRegistry.moduleDirs or agentRegistry.modulePackages, and neither is set`,
      );
    }
    if (!looksLikePath(spec)) {
      if (modulePackages.includes(spec)) return;
      throw new AgentModuleError(`Agent module package ${JSON.stringify(spec)} refused: it is not listed in agentRegistry.modulePackages`);
    }
    const file = realpathSync(path);
    if (moduleDirs.some((dir) => isInside(file, dir))) return;
    throw new AgentModuleError(`Agent module ${spec} refused: its file is outside the directories of agentRegistry.moduleDirs`);
  };
}

/** True when `file` (a real path) lies below the real path of `dir`; a directory that does not exist holds nothing. */
function isInside(file: string, dir: string): boolean {
  let real: string;
  try {
    real = realpathSync(dir);
  } catch {
    return false;
  }
  const rel = relative(real, file);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
