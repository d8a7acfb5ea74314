import { defineBridge, field, type Bridge, type FieldSpec } from '@a2a-polyglot/bridges';
import { createRemoteAgent } from './a2a-remote.js';
import type { ExecutorConfig } from './config.js';
import { createDemoAgent, DEMO_INPUT_MODES } from './demo-agent.js';
import { loadAgentModule } from './load-agent.js';

/**
 * Handlers that come with the service rather than with a framework, so an agent list can mix
 * bridged agents with the demo agent and with agent modules:
 * - `demo`: the built-in demo agent (settings: `chunkDelayMs`);
 * - `module`: an agent module, exactly as `agentModule` loads it (settings: `path`); with
 *   `moduleAllowed`, only a file it accepts is imported (the agent registry's policy);
 * - `a2a-remote`: another A2A server (v1.0 or v0.3) fronted by this one, so it is reachable on
 *   every binding served here (settings: `url`, `headers`, `binding`, `timeoutMs`).
 */
export function serviceHandlers(config: ExecutorConfig, moduleAllowed?: (spec: string, path: string) => void): Bridge<unknown>[] {
  const demo = defineBridge({
    name: 'demo',
    description: 'The built-in demo echo agent',
    inputModes: DEMO_INPUT_MODES,
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
  const remote = defineBridge({
    name: 'a2a-remote',
    description: 'Another A2A agent (v1.0 or v0.3), reached through its card and served here on every binding',
    inputModes: ['*/*'],
    settings: {
      url: field.url({ description: "the remote agent's card URL (ending in .json) or base URL" }),
      headers: field.headers({ description: 'headers sent on every call to the remote agent, e.g. Authorization', default: {}, secret: true }),
      binding: field.oneOf<'jsonrpc' | 'rest' | 'grpc'>(['jsonrpc', 'rest', 'grpc'], {
        description: "the only binding used to reach the remote agent (default: the card's first one the client speaks)",
        optional: true,
      }) as FieldSpec<'jsonrpc' | 'rest' | 'grpc' | undefined>,
      timeoutMs: field.int(1, 3_600_000, { description: 'deadline of a call to the remote agent, or of opening its stream', default: 30_000 }),
    },
    create: (settings, env) => createRemoteAgent(settings, env),
  });
  return [demo, module, remote];
}
