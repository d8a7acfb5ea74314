import type { AgentExecutor, Logger } from '@a2a-polyglot/core';
import type { ExecutorConfig } from './config.js';
import { createDemoAgent } from './demo-agent.js';
import { agentModuleCard, loadAgentModule } from './load-agent.js';
import { mergeModuleCard } from './module-card.js';

/** The agent of a configuration without `agents`, and the configuration it is served with. */
export interface SingleAgent {
  /** The configuration with the module's card merged into `agent` (the card the service serves). */
  readonly config: ExecutorConfig;
  readonly executor: AgentExecutor;
  /** What the service closes at shutdown: the executor it loaded, never a caller's `options.executor`. */
  readonly owned: boolean;
}

/**
 * The single agent: `given` (a caller's executor), else the `agentModule`, else the demo agent.
 * Loaded before anything opens, so a module that fails to load leaves nothing to close; a
 * module's own card is the base of the served one, what the configuration set overrides it.
 */
export async function loadSingleAgent(configured: ExecutorConfig, given: AgentExecutor | undefined, logger: Logger): Promise<SingleAgent> {
  const executor =
    given ??
    (configured.agentModule
      ? await loadAgentModule(configured.agentModule, { config: configured, logger })
      : createDemoAgent({ chunkDelayMs: configured.demo.chunkDelayMs }));
  const moduleCard = agentModuleCard(executor);
  const config: ExecutorConfig = moduleCard ? { ...configured, agent: mergeModuleCard(configured.agent, moduleCard) } : configured;
  return { config, executor, owned: given === undefined };
}
