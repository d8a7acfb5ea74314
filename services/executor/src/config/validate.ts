/**
 * Cross-field checks on a merged configuration, which no single layer can make (duplicate
 * ids, a default agent that does not exist, a store kind without its URL or table, a Redis
 * event log without a shared store, a role without the run queue).
 */
import { agentRegistryKind, eventLogKind, storeKind } from './derived.js';
import { ConfigError, invalidValue as fail } from './errors.js';
import type { AuthConfig, ExecutorConfig, SkillConfig } from './types.js';

/** Final cross-field checks on a merged configuration (each layer was type-checked already). */
export function validateConfig(config: ExecutorConfig): ExecutorConfig {
  if (config.agent.defaultInputModes.length === 0) fail('agent.defaultInputModes', 'a non-empty array of media types', []);
  if (config.agent.defaultOutputModes.length === 0) fail('agent.defaultOutputModes', 'a non-empty array of media types', []);
  checkSkillIds(config.agent.skills, 'agent.skills');
  const agentIds = new Set<string>();
  config.agents.forEach((entry, i) => {
    if (agentIds.has(entry.id)) throw new ConfigError(`Invalid configuration: duplicate agent id ${JSON.stringify(entry.id)} in agents[${i}].id`);
    agentIds.add(entry.id);
    if (entry.defaultInputModes.length === 0) fail(`agents[${i}].defaultInputModes`, 'a non-empty array of media types', []);
    if (entry.defaultOutputModes.length === 0) fail(`agents[${i}].defaultOutputModes`, 'a non-empty array of media types', []);
    checkSkillIds(entry.skills, `agents[${i}].skills`);
    if (entry.auth) checkAuth(entry.auth, `agents[${i}].auth`, false);
  });
  if (config.defaultAgent !== undefined && !agentIds.has(config.defaultAgent)) {
    throw new ConfigError(
      `Invalid configuration: defaultAgent ${JSON.stringify(config.defaultAgent)} is not the id of an entry in agents${agentIds.size ? ` (ids: ${[...agentIds].join(', ')})` : ''}`,
    );
  }
  if (config.agents.length > 0 && config.agentModule !== undefined) {
    throw new ConfigError(
      'Invalid configuration: agentModule serves the single agent; with agents, declare it as an agent with "handler": "module" and "settings": {"path": ...}',
    );
  }
  if (config.agentRegistry.kind === 'postgres' && !config.agentRegistry.url)
    throw new ConfigError('Invalid configuration: agentRegistry.kind is postgres but agentRegistry.url (A2A_AGENT_REGISTRY_URL) is not set');
  if (config.agentRegistry.kind === 'dynamodb' && !config.agentRegistry.table)
    throw new ConfigError('Invalid configuration: agentRegistry.kind is dynamodb but agentRegistry.table (A2A_AGENT_REGISTRY_TABLE) is not set');
  if (agentRegistryKind(config) !== undefined && config.agents.length === 0) {
    throw new ConfigError(
      'Invalid configuration: agentRegistry needs at least one entry in agents (the default agent, served at the root); registry agents are served under /agents/{id}',
    );
  }
  checkAuth(config.auth, 'auth', true);
  const { certFile, keyFile, clientCaFile, clientCertIdentity } = config.tls;
  if (Boolean(certFile) !== Boolean(keyFile))
    throw new ConfigError('Invalid configuration: TLS needs tls.certFile and tls.keyFile together (A2A_TLS_CERT_FILE, A2A_TLS_KEY_FILE)');
  if (clientCaFile && !certFile) throw new ConfigError('Invalid configuration: tls.clientCaFile (mutual TLS) needs TLS on: set tls.certFile and tls.keyFile');
  if (clientCertIdentity && !clientCaFile)
    throw new ConfigError('Invalid configuration: tls.clientCertIdentity needs tls.clientCaFile (only certificates verified against it are identities)');
  const { keyFile: signingKey, ...signing } = config.cardSigning;
  const orphan = Object.entries(signing).find(([, v]) => v !== undefined)?.[0];
  if (orphan && !signingKey)
    throw new ConfigError(`Invalid configuration: cardSigning.${orphan} needs cardSigning.keyFile (A2A_CARD_SIGNING_KEY_FILE), the key that signs the cards`);
  const store = storeKind(config);
  const log = eventLogKind(config);
  if (store === 'postgres' && !config.store.url)
    throw new ConfigError('Invalid configuration: store.kind is postgres but store.url (A2A_POSTGRES_URL) is not set');
  if (store === 'dynamodb' && !config.store.table)
    throw new ConfigError('Invalid configuration: store.kind is dynamodb but store.table (A2A_DYNAMODB_TABLE) is not set');
  if (log === 'redis' && !config.eventLog.url)
    throw new ConfigError('Invalid configuration: eventLog.kind is redis but eventLog.url (A2A_REDIS_URL) is not set');
  if (log === 'redis' && store !== 'postgres' && store !== 'dynamodb') {
    throw new ConfigError(
      `Invalid configuration: the Redis event log serves several instances, which need a shared store: use store.kind postgres or dynamodb (got ${store})`,
    );
  }
  // A frontend without a queue would run what it receives; a worker without one would have nothing to run.
  if (config.role !== 'all' && !config.queue.enabled)
    throw new ConfigError(`Invalid configuration: role ${config.role} needs queue.enabled (A2A_QUEUE): roles split the work of the run queue`);
  return config;
}

/**
 * The cross-field checks of an `auth` section (the service's, at `where` = `auth`, or an
 * agent's own, `agents[0].auth` or a registry row's): the JWT settings come together, and
 * every principal alias names a principal id. `withEnv` adds the variables to the message.
 */
export function checkAuth(auth: AuthConfig, where: string, withEnv = false): void {
  const { jwksUrl, jwtIssuer, jwtAudience } = auth;
  if ((jwksUrl || jwtIssuer || jwtAudience) && !(jwksUrl && jwtIssuer && jwtAudience)) {
    throw new ConfigError(
      `Invalid configuration: bearer JWTs need ${where}.jwksUrl, ${where}.jwtIssuer and ${where}.jwtAudience together${withEnv ? ' (A2A_JWKS_URL, A2A_JWT_ISSUER, A2A_JWT_AUDIENCE)' : ''}`,
    );
  }
  // A name without a scheme prefix could never match (every principal id has one): most likely
  // a name from before ids were namespaced, so it is refused rather than silently ignored.
  const unprefixed = Object.keys(auth.principalAliases).find((id) => !/^(jwt|key|cert):./.test(id));
  if (unprefixed !== undefined) {
    throw new ConfigError(
      `Invalid configuration: ${where}.principalAliases key ${JSON.stringify(unprefixed)} is not a principal id (jwt:<iss>#<sub>, key:<name> or cert:<issuer>#<subject>)`,
    );
  }
}

/** Rejects two skills with the same id in one card. */
function checkSkillIds(skills: readonly SkillConfig[], where: string): void {
  const ids = new Set<string>();
  for (const skill of skills) {
    if (ids.has(skill.id)) throw new ConfigError(`Invalid configuration: duplicate skill id ${JSON.stringify(skill.id)} in ${where}`);
    ids.add(skill.id);
  }
}
