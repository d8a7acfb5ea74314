import { defineBridge, field, type Bridge } from '@a2a-polyglot/bridges';
import type { ExecutorConfig } from './config.js';
import { createDemoAgent } from './demo-agent.js';
import { loadAgentModule } from './load-agent.js';

/**
 * Handlers that come with the service rather than with a framework, so an agent list can mix
 * bridged agents with the demo agent and with agent modules:
 * - `demo`: the built-in demo agent (settings: `chunkDelayMs`);
 * - `module`: an agent module, exactly as `agentModule` loads it (settings: `path`); with
 *   `moduleAllowed`, only a file it accepts is imported (the agent registry's policy).
 */
export function serviceHandlers(config: ExecutorConfig, moduleAllowed?: (spec: string, path: string) => void): Bridge<unknown>[] {
  const demo = defineBridge({
    name: 'demo',
    description: 'The built-in demo echo agent',
    settings: { chunkDelayMs: field.int(0, 60_000, { description: 'pause between chunks', default: config.demo.chunkDelayMs }) },
    create: (settings) => createDemoAgent({ chunkDelayMs: settings.chunkDelayMs }),
  });
  const module = defineBridge({
    name: 'module',
    description: 'Your AgentExecutor module (a file path or a package name)',
    settings: { path: field.string({ description: 'module path or package name' }) },
    // The module sees the service configuration with `agent` set to its own entry (its card);
    // an agent of the registry has no entry in the file, so it gets its own name at least.
    create: (settings, env) => {
      const entry = config.agents.find((a) => a.id === env.agentId);
      return loadAgentModule(
        settings.path,
        { config: { ...config, agent: entry ?? { ...config.agent, name: env.agentName } }, logger: env.logger },
        undefined,
        moduleAllowed,
      );
    },
  });
  return [demo, module];
}
