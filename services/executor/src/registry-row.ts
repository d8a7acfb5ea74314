import { closeExecutor } from '@a2a-polyglot/bridges';
import type { AgentRow } from '@a2a-polyglot/stores/postgres';
import { createAgent, unavailableAgent, type CreateAgentsOptions, type ServedAgent } from './agents.js';
import type { AgentEntryConfig, ExecutorConfig } from './config.js';
import { withAgentDefaults } from './config/merge.js';
import { parseAgentEntry } from './config/parse.js';
import { checkAuth } from './config/validate.js';
import { agentId } from './config/schema/values.js';

/** What building one registry row gave. */
export type RowOutcome =
  /** The row's agent, ready to serve. */
  | { readonly agent: ServedAgent }
  /** The row could not be built: `agent` answers Unavailable with `reason` (undefined when even its id is unusable). */
  | { readonly unavailable: ServedAgent | undefined; readonly reason: string };

/**
 * Builds the agent of one registry row, never throwing and never taking longer than
 * `agentRegistry.loadTimeoutMs`: a row that fails its checks, names a module the policy
 * refuses, fails to load, or is still loading at the deadline becomes an agent that answers
 * Unavailable with the reason, so the failure stays with that agent. Why a deadline: a module
 * whose factory never resolves would otherwise hold its row (and, before rows were built
 * independently, every later change) forever. An agent finished after the deadline is closed.
 */
export async function buildRegistryRow(row: AgentRow, config: ExecutorConfig, options: CreateAgentsOptions): Promise<RowOutcome> {
  const where = `agent registry row ${JSON.stringify(row.id)}`;
  const { maxCardBytes, loadTimeoutMs } = config.agentRegistry;
  if (row.cardBytes > maxCardBytes) {
    return refused(row, undefined, `${where}: its card is ${row.cardBytes} bytes, over agentRegistry.maxCardBytes (${maxCardBytes})`, config, options);
  }
  let entry: AgentEntryConfig;
  try {
    entry = withAgentDefaults(parseAgentEntry({ ...row.card, id: row.id, handler: row.handler, settings: row.settings }, where, undefined));
    if (entry.auth) checkAuth(entry.auth, `${where} auth`);
  } catch (error) {
    return refused(row, undefined, messageOf(error), config, options);
  }
  const building = createAgent(entry, `${where} settings`, config, options);
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), loadTimeoutMs);
  });
  try {
    const built = await Promise.race([building, deadline]);
    if (built !== 'late') return { agent: built };
  } catch (error) {
    return refused(row, entry, messageOf(error), config, options);
  } finally {
    clearTimeout(timer);
  }
  // Late: whatever it builds in the end is not served.
  building.then(
    (agent) => discardAgent(agent, options),
    () => undefined,
  );
  return refused(row, entry, `${where}: its agent did not load within agentRegistry.loadTimeoutMs (${loadTimeoutMs} ms)`, config, options);
}

/** Releases an agent that was built but is not served (late, or its row changed meanwhile). */
export async function discardAgent(agent: ServedAgent, options: CreateAgentsOptions): Promise<void> {
  options.instrumentation.metrics.unwatch(agent.handler);
  await closeExecutor(agent.executor).catch((error: unknown) => options.logger.warn({ agentId: agent.id, err: error }, 'Closing an unserved agent failed'));
}

/** The Unavailable stand-in of `row` (card fields from `entry` when they passed their checks). */
function refused(row: AgentRow, entry: AgentEntryConfig | undefined, reason: string, config: ExecutorConfig, options: CreateAgentsOptions): RowOutcome {
  // An id that is no URL segment cannot be mounted: that row is only reported.
  if (!agentId.safeParse(row.id).success) return { unavailable: undefined, reason };
  const card = entry ?? withAgentDefaults({ id: row.id, handler: row.handler.trim() || 'unknown' });
  return { unavailable: unavailableAgent(card, reason, config, options), reason };
}

/** One line, whatever was thrown. */
function messageOf(error: unknown): string {
  return ((error as Error)?.message ?? String(error)).split('\n')[0] ?? '';
}
