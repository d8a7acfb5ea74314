/** registryModulePolicy: which files a `module` row of the agent registry may import (the table itself: agent-registry-modules.test.ts). */
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentModuleError } from '../src/load-agent.js';
import { registryModulePolicy } from '../src/registry-modules.js';

const root = realpathSync(mkdtempSync(join(tmpdir(), 'a2a-registry-policy-')));
const allowed = join(root, 'agents');
for (const dir of [allowed, join(allowed, 'team'), join(root, 'agents-old'), join(allowed, '..hidden')]) mkdirSync(dir, { recursive: true });
for (const file of [
  join(allowed, 'a.js'),
  join(allowed, 'team', 'b.js'),
  join(root, 'agents-old', 'c.js'),
  join(root, 'outside.js'),
  join(allowed, '..hidden', 'd.js'),
])
  writeFileSync(file, '');
symlinkSync(join(root, 'outside.js'), join(allowed, 'link.js'));

/** The policy's verdict: undefined when allowed, else its message. */
function verdict(policy: ReturnType<typeof registryModulePolicy>, spec: string, path = spec): string | undefined {
  try {
    policy(spec, path);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(AgentModuleError);
    return (error as Error).message;
  }
}

describe('registryModulePolicy', () => {
  const policy = registryModulePolicy({ moduleDirs: [allowed, join(root, 'missing')], modulePackages: ['@acme/agent', 'tools/agent'] });

  it('allows files below a directory of moduleDirs, subdirectories included (even one named "..something")', () => {
    expect(verdict(policy, join(allowed, 'a.js'))).toBeUndefined();
    expect(verdict(policy, join(allowed, '..hidden', 'd.js'))).toBeUndefined();
    expect(verdict(policy, join(allowed, 'team', 'b.js'))).toBeUndefined();
  });

  it('refuses files outside, a sibling directory whose name starts alike, and a symlink inside that points outside', () => {
    for (const file of [join(root, 'outside.js'), join(root, 'agents-old', 'c.js'), join(allowed, 'link.js')]) {
      expect(verdict(policy, file)).toMatch(/refused: its file is outside the directories of agentRegistry\.moduleDirs$/);
    }
  });

  it('allows a package only when listed exactly (a subpath of a listed package is another package)', () => {
    expect(verdict(policy, '@acme/agent', join(allowed, 'a.js'))).toBeUndefined();
    expect(verdict(policy, 'tools/agent', join(allowed, 'a.js'))).toBeUndefined();
    expect(verdict(policy, '@acme/agent/bin/cli.js', join(allowed, 'a.js'))).toBe(
      'Agent module package "@acme/agent/bin/cli.js" refused: it is not listed in agentRegistry.modulePackages',
    );
    expect(verdict(policy, 'tools', join(allowed, 'a.js'))).toMatch(/not listed in agentRegistry\.modulePackages/);
  });

  it('refuses every module when neither key is set', () => {
    const none = registryModulePolicy({ moduleDirs: [], modulePackages: [] });
    expect(verdict(none, join(allowed, 'a.js'))).toMatch(
      /loads modules only from agentRegistry\.moduleDirs or agentRegistry\.modulePackages, and neither is set$/,
    );
  });
});
