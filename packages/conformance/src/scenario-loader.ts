import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EXPERIMENTAL_VERSION, SUPPORTED_VERSIONS } from '@a2a-polyglot/core';
import { PROBE_KINDS, REQUEST_ENCODINGS } from './driver.js';
import type { Scenario, ScenarioFile } from './scenario.js';
import { parseScript } from './script.js';

/** Where the package's own scenario files live (next to `src/` and `dist/`). */
export const SCENARIO_DIR = resolve(__dirname, '..', 'scenarios');

/** Keys each step kind allows; the first key listed is the one that identifies the kind. */
const STEP_KEYS: Readonly<Record<string, readonly string[]>> = {
  call: ['call', 'request', 'send', 'headers', 'as', 'expect'],
  stream: ['stream', 'request', 'send', 'headers', 'as', 'resumeAfter', 'take', 'then', 'expect'],
  drain: ['drain', 'take', 'expect'],
  openGate: ['openGate'],
  probe: ['probe', 'expect'],
  webhook: ['webhook', 'expect'],
  agentCard: ['agentCard', 'expect'],
};
const EXPECT_KEYS = new Set(['error', 'messageOmits', 'result', 'events', 'ended', 'deliveries']);
const SEND_KEYS = new Set(['text', 'script', 'taskId', 'contextId', 'messageId', 'configuration', 'tenant']);
const SCENARIO_KEYS = new Set(['name', 'description', 'card', 'extendedCard', 'requestEncoding', 'protocolVersion', 'handler', 'fault', 'steps']);
/** The handler options a scenario may set (see ScenarioData.handler), with their JSON type. */
const HANDLER_KEYS: Readonly<Record<string, 'boolean' | 'number'>> = {
  backgroundExecution: 'boolean',
  acceptAnyInputMode: 'boolean',
  experimental11: 'boolean',
  longPollMaxMs: 'number',
};
/** The versions a scenario may name: the served ones and the experimental draft. */
const SCENARIO_VERSIONS = [...SUPPORTED_VERSIONS, EXPERIMENTAL_VERSION];

/**
 * Loads every `*.json` scenario file of a directory (default: the package's own), sorted by
 * file name, and returns the scenarios named `<group>/<name>`. A malformed file fails loudly
 * with the file and path of the problem: a typo in a scenario must never turn into a
 * silently skipped check.
 */
export function loadScenarios(dir: string = SCENARIO_DIR): Scenario[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const out: Scenario[] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const path = join(dir, file);
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new Error(`${file}: not valid JSON: ${(error as Error).message}`);
    }
    for (const scenario of checkFile(parsed, file)) {
      if (seen.has(scenario.name)) throw new Error(`${file}: duplicate scenario name ${scenario.name}`);
      seen.add(scenario.name);
      out.push(scenario);
    }
  }
  return out;
}

/** Validates one parsed scenario file and returns its scenarios with group-prefixed names. */
export function checkFile(value: unknown, file: string): Scenario[] {
  const fail = (where: string, what: string) => new Error(`${file}: ${where}: ${what}`);
  if (!isObject(value)) throw fail('$', 'must be an object with group and scenarios');
  const f = value as unknown as ScenarioFile;
  if (typeof f.group !== 'string' || !/^[a-z0-9-]+$/.test(f.group)) throw fail('$.group', 'must be a kebab-case string');
  if (!Array.isArray(f.scenarios)) throw fail('$.scenarios', 'must be an array');
  return f.scenarios.map((s, i) => {
    const where = `$.scenarios[${i}]`;
    if (!isObject(s)) throw fail(where, 'must be an object');
    for (const k of Object.keys(s)) if (!SCENARIO_KEYS.has(k)) throw fail(where, `unknown key ${k}`);
    if (typeof s.name !== 'string' || !/^[a-z0-9-]+$/.test(s.name)) throw fail(`${where}.name`, 'must be a kebab-case string');
    if (typeof s.description !== 'string') throw fail(`${where}.description`, 'is required');
    if (s.card !== undefined && !isObject(s.card)) throw fail(`${where}.card`, 'must be an object');
    if (s.extendedCard !== undefined && !isObject(s.extendedCard)) throw fail(`${where}.extendedCard`, 'must be an object');
    if (s.requestEncoding !== undefined && !isOneOf(REQUEST_ENCODINGS, s.requestEncoding))
      throw fail(`${where}.requestEncoding`, `must be one of ${REQUEST_ENCODINGS.join(', ')}`);
    if (s.protocolVersion !== undefined && !isOneOf(SCENARIO_VERSIONS, s.protocolVersion))
      throw fail(`${where}.protocolVersion`, `must be one of ${SCENARIO_VERSIONS.join(', ')}`);
    if (s.handler !== undefined) {
      if (!isObject(s.handler)) throw fail(`${where}.handler`, 'must be an object');
      for (const [k, v] of Object.entries(s.handler))
        if (HANDLER_KEYS[k] === undefined || typeof v !== HANDLER_KEYS[k])
          throw fail(
            `${where}.handler.${k}`,
            `is not a handler option (known: ${Object.entries(HANDLER_KEYS)
              .map(([name, type]) => `${name} (${type})`)
              .join(', ')})`,
          );
    }
    if (s.fault !== undefined) {
      const fault = s.fault as Record<string, unknown>;
      if (!isObject(fault) || Object.keys(fault).sort().join() !== 'detail,streamFailsAfter')
        throw fail(`${where}.fault`, 'must be {"streamFailsAfter": <events>, "detail": <text>}');
      if (typeof fault.streamFailsAfter !== 'number' || !Number.isInteger(fault.streamFailsAfter) || fault.streamFailsAfter < 0)
        throw fail(`${where}.fault.streamFailsAfter`, 'must be a count of events');
      if (typeof fault.detail !== 'string' || fault.detail === '') throw fail(`${where}.fault.detail`, 'must be a non-empty string');
    }
    if (!Array.isArray(s.steps) || s.steps.length === 0) throw fail(`${where}.steps`, 'must be a non-empty array');
    for (const [j, step] of s.steps.entries()) checkStep(step, `${where}.steps[${j}]`, fail);
    const listTasks = s.steps.findIndex((step) => isObject(step) && step.call === 'ListTasks');
    if (listTasks >= 0 && s.protocolVersion !== '1.0' && s.protocolVersion !== EXPERIMENTAL_VERSION)
      throw fail(`${where}.steps[${listTasks}]`, 'ListTasks has no A2A v0.3 form: mark the scenario "protocolVersion": "1.0"');
    // Checked member by member above: the object is a Scenario now.
    return { ...(s as unknown as Scenario), name: `${f.group}/${s.name}` };
  });
}

function checkStep(step: unknown, where: string, fail: (where: string, what: string) => Error): void {
  if (!isObject(step)) throw fail(where, 'must be an object');
  const [kind, allowed] = Object.entries(STEP_KEYS).find(([k]) => k in step) ?? [];
  if (kind === undefined || allowed === undefined) throw fail(where, `needs one of ${Object.keys(STEP_KEYS).join(', ')}`);
  for (const k of Object.keys(step)) if (!allowed.includes(k)) throw fail(where, `unknown key ${k} for a ${kind} step`);
  const s = step as Record<string, unknown>;
  if (kind === 'probe' && !PROBE_KINDS.includes(s.probe as never)) throw fail(`${where}.probe`, `must be one of ${PROBE_KINDS.join(', ')}`);
  if (kind === 'webhook' && (typeof s.webhook !== 'number' || s.webhook < 0)) throw fail(`${where}.webhook`, 'must be a count');
  if ((kind === 'call' || kind === 'stream') && typeof s[kind] !== 'string') throw fail(`${where}.${kind}`, 'must be an operation name');
  if (s.request !== undefined && s.send !== undefined) throw fail(where, 'use either request or send, not both');
  if (s.send !== undefined) {
    if (!isObject(s.send)) throw fail(`${where}.send`, 'must be an object');
    for (const k of Object.keys(s.send)) if (!SEND_KEYS.has(k)) throw fail(`${where}.send`, `unknown key ${k}`);
    try {
      parseScript((s.send as Record<string, unknown>).script);
    } catch (error) {
      throw fail(`${where}.send`, (error as Error).message);
    }
  }
  if (s.then !== undefined && s.then !== 'cut' && s.then !== 'keep') throw fail(`${where}.then`, 'must be cut or keep');
  if (s.then === 'keep' && typeof s.as !== 'string') throw fail(where, 'then: keep needs a name in as (for the later drain)');
  if (kind !== 'openGate') {
    if (!isObject(s.expect)) throw fail(`${where}.expect`, 'is required');
    for (const k of Object.keys(s.expect)) if (!EXPECT_KEYS.has(k)) throw fail(`${where}.expect`, `unknown key ${k}`);
    const omits = (s.expect as Record<string, unknown>).messageOmits;
    if (omits !== undefined && (typeof omits !== 'string' || omits === '')) throw fail(`${where}.expect.messageOmits`, 'must be a non-empty string');
  }
}

/** Whether `value` is one of `allowed` (a string union's values). */
function isOneOf<T>(allowed: readonly T[], value: unknown): value is T {
  return (allowed as readonly unknown[]).includes(value);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
