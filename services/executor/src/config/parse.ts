/**
 * Turns one raw layer (a config file's JSON, a `startExecutor` argument, or a single
 * environment variable or flag) into a checked, typed partial configuration: known keys only,
 * every value checked, relative paths resolved.
 */
import { DYNAMO_TABLE_NAME, DYNAMO_TABLE_NAME_RULE } from '@a2a-polyglot/stores';
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { CARD_COMPAT_VALUES } from '@a2a-polyglot/server';
import {
  absoluteUrl,
  agentId,
  apiKeys,
  basePath,
  bool,
  connectionUrl,
  fail,
  grpcPublicUrl,
  intIn,
  knownKeys,
  logLevel,
  nonEmpty,
  nonNegativeMs,
  oneOf,
  port,
  portOrOff,
  positiveBytes,
  record,
  str,
  strings,
  type Check,
} from './checks.js';
import type { ExecutorConfigInput, SkillConfig } from './types.js';

/**
 * Validates one layer (a config file's JSON, or a `startExecutor` argument) and returns it as
 * a typed partial. `source` prefixes every key in error messages (e.g. `config file x.json:`).
 */
export function parseConfigInput(raw: unknown, source: string, baseDir?: string): ExecutorConfigInput {
  const at = (key: string) => `${source}${key}`;
  const obj = record(raw, source.replace(/[: ]+$/, '') || 'configuration');
  knownKeys(obj, ['$schema', 'host', 'port', 'basePath', 'publicBaseUrl', 'trustProxy', 'grpcPort', 'grpcHost', 'grpcPublicUrl', 'websocketInCard', 'maxBodyBytes', 'strictRequests', 'cardCompat', 'sseHeartbeatMs', 'streamStallTimeoutMs', 'listTasksMaxBytes', 'shutdownGraceMs', 'logLevel', 'agent', 'agentModule', 'demo', 'agents', 'handlers', 'defaultAgent', 'auth', 'push', 'store', 'eventLog', 'instanceId', 'lease', 'rateLimit', 'tls'], source);
  const out: Record<string, unknown> = {};
  const take = <T>(key: string, check: Check<T>) => {
    if (obj[key] !== undefined) out[key] = check(obj[key], at(key));
  };
  take('host', nonEmpty);
  take('port', port);
  take('basePath', basePath);
  take('publicBaseUrl', absoluteUrl);
  take('trustProxy', bool);
  take('grpcPort', portOrOff);
  take('grpcHost', nonEmpty);
  take('grpcPublicUrl', grpcPublicUrl);
  take('websocketInCard', bool);
  take('maxBodyBytes', positiveBytes);
  take('strictRequests', bool);
  take('cardCompat', oneOf(...CARD_COMPAT_VALUES));
  take('sseHeartbeatMs', nonNegativeMs);
  take('streamStallTimeoutMs', nonNegativeMs);
  take('listTasksMaxBytes', positiveBytes);
  take('shutdownGraceMs', nonNegativeMs);
  take('logLevel', logLevel);
  take('agentModule', (v, where) => resolveModulePath(nonEmpty(v, where), baseDir));
  if (obj.agent !== undefined) out.agent = parseAgent(obj.agent, at('agent'));
  take('defaultAgent', agentId);
  if (obj.agents !== undefined) {
    if (!Array.isArray(obj.agents)) fail(at('agents'), 'an array of agents', obj.agents);
    out.agents = obj.agents.map((a: unknown, i: number) => parseAgentEntry(a, at(`agents[${i}]`), baseDir));
  }
  if (obj.handlers !== undefined) {
    const handlers = record(obj.handlers, at('handlers'));
    out.handlers = Object.fromEntries(Object.entries(handlers).map(([name, settings]) => [name, { ...record(settings, at(`handlers.${name}`)) }]));
  }
  if (obj.demo !== undefined) {
    const demo = record(obj.demo, at('demo'));
    knownKeys(demo, ['chunkDelayMs'], at('demo'));
    out.demo = demo.chunkDelayMs === undefined ? {} : { chunkDelayMs: nonNegativeMs(demo.chunkDelayMs, at('demo.chunkDelayMs')) };
  }
  if (obj.auth !== undefined) {
    const auth = record(obj.auth, at('auth'));
    knownKeys(auth, ['apiKeys', 'header', 'jwksUrl', 'jwtIssuer', 'jwtAudience', 'jwtClockToleranceSec', 'openIdConnectUrl'], at('auth'));
    out.auth = {
      ...(auth.apiKeys !== undefined && { apiKeys: apiKeys(auth.apiKeys, at('auth.apiKeys')) }),
      ...(auth.header !== undefined && { header: nonEmpty(auth.header, at('auth.header')) }),
      ...(auth.jwksUrl !== undefined && { jwksUrl: absoluteUrl(auth.jwksUrl, at('auth.jwksUrl')) }),
      ...(auth.jwtIssuer !== undefined && { jwtIssuer: nonEmpty(auth.jwtIssuer, at('auth.jwtIssuer')) }),
      ...(auth.jwtAudience !== undefined && { jwtAudience: nonEmpty(auth.jwtAudience, at('auth.jwtAudience')) }),
      ...(auth.jwtClockToleranceSec !== undefined && { jwtClockToleranceSec: intIn(0, 3600)(auth.jwtClockToleranceSec, at('auth.jwtClockToleranceSec')) }),
      ...(auth.openIdConnectUrl !== undefined && { openIdConnectUrl: absoluteUrl(auth.openIdConnectUrl, at('auth.openIdConnectUrl')) }),
    };
  }
  if (obj.push !== undefined) {
    const push = record(obj.push, at('push'));
    knownKeys(push, ['allowPrivateNetworks'], at('push'));
    out.push = push.allowPrivateNetworks === undefined ? {} : { allowPrivateNetworks: bool(push.allowPrivateNetworks, at('push.allowPrivateNetworks')) };
  }
  take('instanceId', nonEmpty);
  const section = (key: string, checks: Record<string, Check<unknown>>) => {
    if (obj[key] === undefined) return;
    const raw = record(obj[key], at(key));
    knownKeys(raw, Object.keys(checks), at(key));
    const parsed: Record<string, unknown> = {};
    for (const [k, check] of Object.entries(checks)) if (raw[k] !== undefined) parsed[k] = check(raw[k], at(`${key}.${k}`));
    out[key] = parsed;
  };
  section('store', {
    kind: oneOf('memory', 'sqlite', 'postgres', 'dynamodb'),
    path: (v, where) => resolve(baseDir ?? process.cwd(), nonEmpty(v, where)),
    url: connectionUrl('postgres:', 'postgresql:'),
    schema: (v, where) => (typeof v === 'string' && /^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(v) ? v : fail(where, 'a schema name (letters, digits, _)', v)),
    maxConnections: intIn(1, 1000),
    table: (v, where) => (typeof v === 'string' && DYNAMO_TABLE_NAME.test(v) ? v : fail(where, `a DynamoDB table name (${DYNAMO_TABLE_NAME_RULE})`, v)),
    endpoint: absoluteUrl,
    region: (v, where) => (typeof v === 'string' && /^[a-z0-9-]{1,64}$/.test(v) ? v : fail(where, 'an AWS region such as "eu-west-1"', v)),
    retentionMs: intIn(0, 10 * 365 * 24 * 60 * 60 * 1000),
  });
  section('eventLog', {
    kind: oneOf('memory', 'redis'),
    url: connectionUrl('redis:', 'rediss:'),
    prefix: nonEmpty,
    retentionMs: nonNegativeMs,
    maxEventsPerTask: intIn(1, 1_000_000),
  });
  section('lease', { ttlMs: intIn(100, 24 * 60 * 60 * 1000), sweepIntervalMs: intIn(10, 24 * 60 * 60 * 1000) });
  const window = intIn(1, 24 * 60 * 60);
  section('rateLimit', { addressPoints: intIn(0, 1_000_000_000), addressWindowSec: window, identityPoints: intIn(0, 1_000_000_000), identityWindowSec: window });
  const file = (v: unknown, where: string) => resolve(baseDir ?? process.cwd(), nonEmpty(v, where));
  section('tls', { certFile: file, keyFile: file, clientCaFile: file, clientCertIdentity: bool });
  return out as ExecutorConfigInput;
}

/** The card fields `agent` and each entry in `agents` accept. */
const CARD_KEYS = ['name', 'description', 'version', 'provider', 'documentationUrl', 'iconUrl', 'skills', 'capabilities', 'defaultInputModes', 'defaultOutputModes'];

function parseAgentEntry(raw: unknown, where: string, baseDir: string | undefined): NonNullable<ExecutorConfigInput['agents']>[number] {
  const obj = record(raw, where);
  knownKeys(obj, ['id', 'handler', 'settings', ...CARD_KEYS], where);
  const { id, handler, settings, ...card } = obj;
  const parsedSettings = settings === undefined ? {} : { ...record(settings, `${where}.settings`) };
  // The module handler's path resolves like agentModule: against the config file's directory.
  if (handler === 'module' && typeof parsedSettings.path === 'string' && parsedSettings.path.trim() !== '') parsedSettings.path = resolveModulePath(parsedSettings.path, baseDir);
  return { ...parseAgent(card, where), id: agentId(id, `${where}.id`), handler: nonEmpty(handler, `${where}.handler`), settings: parsedSettings };
}

function parseAgent(raw: unknown, where: string): ExecutorConfigInput['agent'] {
  const obj = record(raw, where);
  knownKeys(obj, CARD_KEYS, where);
  const out: Record<string, unknown> = {};
  for (const key of ['name', 'description', 'version'] as const) if (obj[key] !== undefined) out[key] = nonEmpty(obj[key], `${where}.${key}`);
  for (const key of ['documentationUrl', 'iconUrl'] as const) if (obj[key] !== undefined) out[key] = absoluteUrl(obj[key], `${where}.${key}`);
  for (const key of ['defaultInputModes', 'defaultOutputModes'] as const) if (obj[key] !== undefined) out[key] = strings(obj[key], `${where}.${key}`);
  if (obj.provider !== undefined) {
    const p = record(obj.provider, `${where}.provider`);
    knownKeys(p, ['organization', 'url'], `${where}.provider`);
    out.provider = { organization: nonEmpty(p.organization, `${where}.provider.organization`), url: absoluteUrl(p.url, `${where}.provider.url`) };
  }
  if (obj.capabilities !== undefined) {
    const c = record(obj.capabilities, `${where}.capabilities`);
    knownKeys(c, ['streaming', 'pushNotifications', 'extendedAgentCard'], `${where}.capabilities`);
    const caps: Record<string, boolean> = {};
    for (const key of ['streaming', 'pushNotifications', 'extendedAgentCard']) if (c[key] !== undefined) caps[key] = bool(c[key], `${where}.capabilities.${key}`);
    out.capabilities = caps;
  }
  if (obj.skills !== undefined) {
    if (!Array.isArray(obj.skills)) fail(`${where}.skills`, 'an array of skills', obj.skills);
    out.skills = obj.skills.map((s: unknown, i: number) => parseSkill(s, `${where}.skills[${i}]`));
  }
  return out as ExecutorConfigInput['agent'];
}

function parseSkill(raw: unknown, where: string): SkillConfig {
  const s = record(raw, where);
  knownKeys(s, ['id', 'name', 'description', 'tags', 'examples', 'inputModes', 'outputModes'], where);
  return {
    id: nonEmpty(s.id, `${where}.id`),
    name: nonEmpty(s.name, `${where}.name`),
    description: str(s.description, `${where}.description`),
    ...(s.tags !== undefined && { tags: strings(s.tags, `${where}.tags`) }),
    ...(s.examples !== undefined && { examples: strings(s.examples, `${where}.examples`) }),
    ...(s.inputModes !== undefined && { inputModes: strings(s.inputModes, `${where}.inputModes`) }),
    ...(s.outputModes !== undefined && { outputModes: strings(s.outputModes, `${where}.outputModes`) }),
  };
}

/**
 * Relative module paths resolve against `baseDir`. A bare name is a path too when such a file
 * exists there (`examples/agent.js` without `./`, the way people type it); otherwise it stays
 * a package name for `require.resolve`.
 */
function resolveModulePath(spec: string, baseDir: string | undefined): string {
  if (isAbsolute(spec)) return spec;
  const path = resolve(baseDir ?? process.cwd(), spec);
  return spec.startsWith('./') || spec.startsWith('../') || spec === '.' || spec === '..' || existsSync(path) ? path : spec;
}
