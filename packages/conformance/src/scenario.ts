import type { NegotiatedVersion } from '@a2a-polyglot/core';
import type { Json } from './normalize.js';
import type { Binding, ProbeKind, RequestEncoding } from './driver.js';
import type { ScenarioFault } from './fault.js';
import type { ScriptStep } from './script.js';

/**
 * Scenario files are plain JSON (see scenarios/*.json and the README). These types describe
 * them; {@link loadScenarios} checks a file against them and reports the exact bad path.
 * Nothing in a scenario names a binding.
 */

/** One file: a group of scenarios (`<group>/<name>` becomes the test name). */
export interface ScenarioFile {
  readonly group: string;
  readonly description?: string;
  readonly scenarios: readonly ScenarioData[];
}

/** A scenario as written in a file (name without the group). */
export interface ScenarioData {
  readonly name: string;
  readonly description: string;
  /** AgentCard JSON merged over the default card (capabilities gate streaming, push, extended card). */
  readonly card?: { readonly [key: string]: Json };
  /** When set, the handler serves this AgentCard JSON (merged over the card) as the extended card. */
  readonly extendedCard?: { readonly [key: string]: Json };
  /**
   * The request encoding the scenario's input needs (see {@link RequestEncoding}); bindings
   * of the other encoding skip it. Unset: every binding runs it.
   */
  readonly requestEncoding?: RequestEncoding;
  /**
   * The A2A generation the scenario can be expressed in, when only one: `1.0` for scenarios
   * about what v0.3 lacks (ListTasks, tenants, the A2A-Version header, paging of push configs,
   * v1.0-only malformed input). Bindings whose client speaks the other one skip it. `1.1`, the
   * experimental draft: run by the bindings of the 1.0 wire (1.1 is carried by it), every step
   * sends `A2A-Version: 1.1` unless it says otherwise, and the handler serves 1.1
   * (`experimental11`, unless `handler` turns it off). Unset: every binding runs it.
   */
  readonly protocolVersion?: NegotiatedVersion;
  /**
   * Handler options the scenario is about, for behaviour an operator turns on:
   * `backgroundExecution` (false: a send's task follows its caller, `returnImmediately` is
   * refused), `acceptAnyInputMode` (true: parts the card's input modes do not list reach the
   * agent), `experimental11` (serve the A2A 1.1 draft) and `longPollMaxMs` (the bound of a
   * 1.1 GetTask long poll). Unset: the defaults.
   */
  readonly handler?: {
    readonly backgroundExecution?: boolean;
    readonly acceptAnyInputMode?: boolean;
    readonly experimental11?: boolean;
    readonly longPollMaxMs?: number;
  };
  /**
   * A server-side failure to inject (see {@link ScenarioFault}): the handler's stream breaking
   * with an internal error, which no scripted agent can cause. Unset: none.
   */
  readonly fault?: ScenarioFault;
  readonly steps: readonly Step[];
}

/**
 * Why a binding skips a scenario (it needs the other request encoding, or the other protocol
 * generation), or undefined when the binding runs it.
 */
export function scenarioSkipReason(scenario: ScenarioData, binding: Binding): string | undefined {
  if (scenario.requestEncoding !== undefined && scenario.requestEncoding !== (binding.requestEncoding ?? 'json'))
    return `needs ${scenario.requestEncoding} requests`;
  if (scenario.protocolVersion !== undefined && wireOf(scenario.protocolVersion) !== (binding.protocolVersion ?? '1.0'))
    return `needs A2A ${scenario.protocolVersion}`;
  return undefined;
}

/** The wire generation a version travels on: the experimental 1.1 is 1.0's wire plus optional fields. */
function wireOf(version: NegotiatedVersion): string {
  return version === '1.1' ? '1.0' : version;
}

/** Whether a binding runs a scenario (see {@link scenarioSkipReason}). */
export function scenarioAppliesTo(scenario: ScenarioData, binding: Binding): boolean {
  return scenarioSkipReason(scenario, binding) === undefined;
}

/** A loaded scenario: `name` is `<group>/<name>`. */
export type Scenario = ScenarioData;

/**
 * What an outcome must look like, matched partially against the summary (see `summarize`):
 * - `error`: the A2A error code (ErrorInfo reason) of the failure;
 * - `result`: the summary of a unary result;
 * - `events`: the summaries of the stream events read by this step, all of them, in order;
 * - `ended`: whether the server ended the stream (true) or it was cut/kept (false);
 * - `deliveries`: the webhook deliveries received so far;
 * - `messageOmits`: text the error's message must not contain (an internal detail that a
 *   binding must not leak; what a driver saw as the error's cause is not part of the message).
 */
export interface Expectation {
  readonly error?: string;
  readonly messageOmits?: string;
  readonly result?: Json;
  readonly events?: readonly Json[];
  readonly ended?: boolean;
  readonly deliveries?: readonly Json[];
}

/**
 * Shorthand for a SendMessageRequest: a user message (messageId `msg-<step index>`, role
 * user, one text part) plus the script for the agent in `metadata.script`.
 */
export interface SendSpec {
  readonly text?: string;
  readonly script?: readonly ScriptStep[];
  readonly taskId?: string;
  readonly contextId?: string;
  readonly messageId?: string;
  readonly configuration?: Json;
  /** `SendMessageRequest.tenant` (REST puts a non-empty tenant in the path). */
  readonly tenant?: string;
}

/** Common to steps that issue a request: the request JSON, or the `send` shorthand. */
interface RequestStep {
  /** The request message JSON as is (placeholders like `$t1.id` substituted). */
  readonly request?: Json;
  readonly send?: SendSpec;
  /** Header overrides; `null` removes a default header (e.g. A2A-Version). */
  readonly headers?: { readonly [name: string]: string | null };
  /** Saves the outcome under this name for placeholders in later steps. */
  readonly as?: string;
}

/** A unary operation (`SendMessage`, `GetTask`, `ListTasks`, `CancelTask`, push config ops, `GetExtendedAgentCard`). */
export interface CallStep extends RequestStep {
  readonly call: string;
  readonly expect: Expectation;
}

/** A streaming operation (`SendStreamingMessage`, `SubscribeToTask`). */
export interface StreamStep extends RequestStep {
  readonly stream: string;
  /** Resume after this sequence number (a number, or a placeholder such as `$s1.lastSeq`). */
  readonly resumeAfter?: number | string;
  /** Read this many events, then stop reading (default: read until the server ends the stream). */
  readonly take?: number;
  /** After `take`: `cut` closes the connection (default), `keep` leaves it open for a later `drain`. */
  readonly then?: 'cut' | 'keep';
  readonly expect: Expectation;
}

/** Continues reading a stream kept open by an earlier step, to its end. */
export interface DrainStep {
  readonly drain: string;
  /** Read at most this many events and keep the stream open (default: to the end). */
  readonly take?: number;
  readonly expect: Expectation;
}

/** Opens a named gate the scripted agent may be parked at. */
export interface OpenGateStep {
  readonly openGate: string;
}

/** Bad input that is not a request message. */
export interface ProbeStep {
  readonly probe: ProbeKind;
  readonly expect: Expectation;
}

/** Waits until the test's webhook receiver holds this many deliveries, then checks them all. */
export interface WebhookStep {
  readonly webhook: number;
  readonly expect: Expectation;
}

/** Agent card discovery. */
export interface AgentCardStep {
  readonly agentCard: true;
  readonly expect: Expectation;
}

/** One step of a scenario, told apart by its first key. */
export type Step = CallStep | StreamStep | DrainStep | OpenGateStep | ProbeStep | WebhookStep | AgentCardStep;
