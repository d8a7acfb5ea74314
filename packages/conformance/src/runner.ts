import { RequestHandler, silentLogger, type RequestHandlerOptions } from '@a2a-polyglot/core';
import { V03_WEBHOOK_ENCODING } from '@a2a-polyglot/v03/json';
import { buildCard, mergeJson, DEFAULT_CARD_JSON } from './card.js';
import {
  describeDriverError,
  toDriverError,
  type Binding,
  type CallOptions,
  type Driver,
  type DriverError,
  type DriverStream,
  type StreamItem,
} from './driver.js';
import { faultInterceptors } from './fault.js';
import { v03DeliveryToV1 } from './drivers/v03-translate.js';
import { Gates } from './gates.js';
import { Normalizer, type Json } from './normalize.js';
import { resolvePlaceholders } from './placeholders.js';
import type { CallStep, DrainStep, Scenario, SendSpec, Step, StreamStep } from './scenario.js';
import { ScriptedExecutor } from './scripted-executor.js';
import { check, type StepOutcome, type StepResult } from './step-outcome.js';
import { describe, recordIds, sendRequest, usesWebhook, type SavedStream } from './step-requests.js';
import { WebhookReceiver } from './webhook-receiver.js';

export type { StepOutcome } from './step-outcome.js';
export { sendRequest } from './step-requests.js';

/** Tuning of {@link runScenario}. */
export interface RunOptions {
  /** Bound of every single wait (a call, one stream event, webhook deliveries). Default 5000 ms. */
  readonly waitMs?: number;
  /** Builds the stores each scenario's handler runs on (default: core's in-memory ones). */
  readonly backend?: () => Promise<ScenarioBackend>;
}

/**
 * Durable stores, a shared event log, cluster settings: what a backend adds to the scenario's
 * handler, so the same scenarios prove every store behaves like the in-memory one.
 */
export interface ScenarioBackend {
  readonly handlerOptions: Omit<Partial<RequestHandlerOptions>, 'card' | 'executor'>;
  /** Releases the backend after the scenario (its handler is already shut down). */
  close?(): Promise<void>;
}

/** Everything one scenario produced on one binding. */
export interface ScenarioRun {
  readonly scenario: string;
  readonly binding: string;
  readonly outcomes: StepOutcome[];
  /** Expectation mismatches and runner problems, one line each (empty = pass). */
  readonly failures: string[];
}

/** Outcome code of a step whose wait ran out (the binding never answered). */
export const RUNNER_TIMEOUT = 'RUNNER_TIMEOUT';
/** Outcome code of a step the runner could not perform (e.g. an unresolved placeholder). */
export const RUNNER_ERROR = 'RUNNER_ERROR';

class RunnerTimeout extends Error {}

/** What one step produced: the outcome, the problem as one line, and the error message the binding sent. */
interface Performed {
  readonly outcome: StepResult;
  readonly message?: string;
  readonly sent?: string;
}

function failedWith(error: DriverError): Performed {
  return { outcome: { error: error.code }, message: describeDriverError(error), sent: error.message };
}

/** A stream kept open across steps. */
interface OpenStream {
  readonly stream: DriverStream;
  readonly iterator: AsyncIterator<StreamItem>;
  readonly saved: SavedStream;
}

/**
 * Builds the handler a scenario runs against: its card and handler options, the scripted
 * agent, its fault (if any) as an interceptor, private webhooks allowed, and v0.3 webhook
 * bodies for v0.3 registrations (as the executor serves them).
 */
export function createScenarioHandler(scenario: Scenario, executor: ScriptedExecutor, extra: ScenarioBackend['handlerOptions'] = {}): RequestHandler {
  const cardJson = mergeJson(DEFAULT_CARD_JSON, scenario.card ?? {}) as { [key: string]: Json };
  const extended = scenario.extendedCard;
  return new RequestHandler({
    ...extra,
    // A 1.1 scenario is about the draft: its handler serves it unless the scenario says otherwise.
    ...(scenario.protocolVersion === '1.1' && { experimental11: true }),
    ...scenario.handler,
    interceptors: [...(extra.interceptors ?? []), ...faultInterceptors(scenario.fault)],
    card: buildCard(cardJson, {}),
    executor,
    allowPrivateWebhooks: true,
    webhookEncodings: { '0.3': V03_WEBHOOK_ENCODING },
    logger: silentLogger,
    extendedCard: extended ? () => buildCard(extended, cardJson) : undefined,
  });
}

/**
 * Runs one scenario on one binding: a fresh handler and server, the steps in order, each
 * outcome normalized and checked against the step's expectation. Never throws for a
 * binding's misbehaviour; every problem becomes a line in `failures`, so one run yields a
 * complete picture for the cross-binding comparison.
 */
export async function runScenario(scenario: Scenario, binding: Binding, options: RunOptions = {}): Promise<ScenarioRun> {
  const run = new ScenarioRunner(scenario, binding, options.waitMs ?? 5000, options.backend);
  return run.execute();
}

class ScenarioRunner {
  private readonly gates = new Gates();
  private normalizer = new Normalizer();
  private readonly vars = new Map<string, unknown>();
  private readonly streams = new Map<string, OpenStream>();
  private readonly outcomes: StepOutcome[] = [];
  private readonly failures: string[] = [];
  private receiver: WebhookReceiver | undefined;
  private driver!: Driver;

  constructor(
    private readonly scenario: Scenario,
    private readonly binding: Binding,
    private readonly waitMs: number,
    private readonly backendFactory?: () => Promise<ScenarioBackend>,
  ) {}

  async execute(): Promise<ScenarioRun> {
    const backend = await this.backendFactory?.();
    const handler = createScenarioHandler(this.scenario, new ScriptedExecutor(this.gates), backend?.handlerOptions);
    try {
      if (usesWebhook(this.scenario)) {
        this.receiver = await new WebhookReceiver().start();
        this.vars.set('webhook', { url: this.receiver.url });
        this.normalizer = new Normalizer({ [this.receiver.url]: '<webhook-url>' });
      }
      this.driver = await this.binding.start(handler);
      for (const [i, step] of this.scenario.steps.entries()) await this.step(step, i);
    } catch (error) {
      this.failures.push(`runner: ${(error as Error).stack ?? String(error)}`);
    } finally {
      await this.cleanup(handler);
      if (backend?.close) await this.within(backend.close(), 'backend close').catch((e: Error) => this.failures.push(`cleanup: ${e.message}`));
    }
    return { scenario: this.scenario.name, binding: this.binding.name, outcomes: this.outcomes, failures: this.failures };
  }

  private async step(step: Step, index: number): Promise<void> {
    const label = `step ${index} (${describe(step)})`;
    let outcome: StepResult;
    let message: string | undefined;
    let sent: string | undefined;
    try {
      ({ outcome, message, sent } = await this.perform(step, index));
    } catch (error) {
      outcome = { error: error instanceof RunnerTimeout ? RUNNER_TIMEOUT : RUNNER_ERROR };
      message = (error as Error).message;
    }
    this.outcomes.push({ step: label, ...outcome });
    if ('expect' in step) {
      const problems = check(step.expect, outcome, message, sent);
      for (const p of problems) this.failures.push(`${label}: ${p}`);
    } else if (outcome.error) {
      this.failures.push(`${label}: ${message ?? outcome.error}`);
    }
  }

  private async perform(step: Step, index: number): Promise<Performed> {
    if ('call' in step) return this.call(step, index);
    if ('stream' in step) return this.stream(step, index);
    if ('drain' in step) return this.drain(step);
    if ('openGate' in step) {
      this.gates.open(step.openGate);
      return { outcome: {} };
    }
    if ('probe' in step) return this.unary(await this.within(this.driver.probe(step.probe), `probe ${step.probe}`));
    if ('agentCard' in step) {
      // Each binding advertises its own endpoint URLs; everything else in the card is shared.
      const res = await this.within(this.driver.agentCard(), 'agent card');
      if (res.ok && typeof res.result === 'object' && res.result !== null) delete (res.result as Record<string, unknown>).supportedInterfaces;
      return this.unary(res);
    }
    if ('webhook' in step) {
      if (!this.receiver) throw new Error('webhook step without a receiver');
      const arrived = await this.receiver.waitFor(step.webhook, this.waitMs);
      // A v0.3 binding registered its webhooks in v0.3: their bodies are checked and read as v0.3.
      const v03 = this.binding.protocolVersion === '0.3';
      const deliveries = this.receiver.deliveries.map((delivery) => {
        const d = v03 ? v03DeliveryToV1(delivery) : delivery;
        return this.normalizer.normalize({ contentType: d.contentType, authorization: d.authorization, token: d.token, body: d.body });
      });
      return {
        outcome: { deliveries },
        message: arrived ? undefined : `only ${this.receiver.deliveries.length} of ${step.webhook} deliveries within ${this.waitMs} ms`,
      };
    }
    throw new Error('unknown step kind');
  }

  private async call(step: CallStep, index: number): Promise<Performed> {
    const request = this.request(step, index);
    const res = await this.within(this.driver.call(step.call, request, this.options(step.headers)), `${step.call}`);
    if (res.ok && step.as) {
      const r = res.result as Record<string, unknown> | null;
      this.vars.set(step.as, (r && typeof r === 'object' && (r.task ?? r.message)) || r);
    }
    return this.unary(res);
  }

  private unary(res: Awaited<ReturnType<Driver['call']>>): Performed {
    if (!res.ok) return failedWith(res.error);
    return { outcome: { result: this.normalizer.normalize(res.result) } };
  }

  private async stream(step: StreamStep, index: number): Promise<Performed> {
    const request = this.request(step, index);
    const resume = step.resumeAfter === undefined ? undefined : resolvePlaceholders(step.resumeAfter, this.vars);
    if (resume !== undefined && typeof resume !== 'number') throw new Error(`resumeAfter must resolve to a number, got ${JSON.stringify(resume)}`);
    const opened = await this.within(this.driver.open(step.stream, request, { ...this.options(step.headers), resumeAfterSeq: resume }), step.stream);
    if (!opened.ok) return failedWith(opened.error);
    const open: OpenStream = { stream: opened.stream, iterator: opened.stream[Symbol.asyncIterator](), saved: {} };
    if (step.as) this.vars.set(step.as, open.saved);
    const read = await this.read(open, step.take);
    if (!read.ended) {
      if (step.then === 'keep' && step.as) this.streams.set(step.as, open);
      else open.stream.close();
    }
    return read.result;
  }

  private async drain(step: DrainStep): Promise<Performed> {
    const open = this.streams.get(step.drain);
    if (!open) throw new Error(`no open stream saved as ${step.drain}`);
    const read = await this.read(open, step.take);
    if (read.ended || step.take === undefined) {
      this.streams.delete(step.drain);
      if (!read.ended) open.stream.close();
    }
    return read.result;
  }

  /** Reads up to `take` events (or to the end), each wait bounded; records seqs and ids for placeholders. */
  private async read(open: OpenStream, take: number | undefined): Promise<{ ended: boolean; result: Performed }> {
    const events: Json[] = [];
    let ended = false;
    let error: DriverError | undefined;
    while (take === undefined || events.length < take) {
      let next: IteratorResult<StreamItem>;
      try {
        next = await this.within(open.iterator.next(), `stream event ${events.length + 1}`);
      } catch (e) {
        error = e instanceof RunnerTimeout ? { code: RUNNER_TIMEOUT, message: e.message } : toDriverError(e);
        open.stream.close();
        ended = !(e instanceof RunnerTimeout);
        break;
      }
      if (next.done) {
        ended = true;
        break;
      }
      const { seq, event } = next.value;
      if (seq !== undefined) open.saved.lastSeq = seq;
      recordIds(open.saved, event);
      events.push(this.normalizer.normalize(seq === undefined ? { event } : { seq, event }));
    }
    const outcome: StepResult = error ? { events, ended, error: error.code } : { events, ended };
    return { ended, result: { outcome, ...(error && { message: describeDriverError(error), sent: error.message }) } };
  }

  private request(step: { request?: Json; send?: SendSpec }, index: number): unknown {
    const raw = step.send ? sendRequest(step.send, index) : (step.request ?? {});
    return resolvePlaceholders(raw, this.vars);
  }

  /** The call options of a step: its headers over the scenario's (a 1.1 scenario names 1.1 on every call). */
  private options(headers: { readonly [name: string]: string | null } | undefined): CallOptions {
    const scenarioHeaders = this.scenario.protocolVersion === '1.1' ? { 'A2A-Version': '1.1' } : undefined;
    if (!scenarioHeaders) return headers ? { headers } : {};
    return { headers: { ...scenarioHeaders, ...headers } };
  }

  private within<T>(promise: Promise<T>, what: string): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RunnerTimeout(`timed out after ${this.waitMs} ms waiting for ${what}`)), this.waitMs);
    });
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
  }

  private async cleanup(handler: RequestHandler): Promise<void> {
    for (const open of this.streams.values()) open.stream.close();
    this.gates.openAll();
    const bounded = (p: Promise<unknown>) => this.within(p, 'cleanup').catch((e: Error) => this.failures.push(`cleanup: ${e.message}`));
    await bounded(handler.shutdown(50));
    if (this.driver) await bounded(this.driver.close());
    if (this.receiver) await bounded(this.receiver.close());
  }
}
