import { matchExpected } from './compare.js';
import type { Json } from './normalize.js';
import type { Expectation } from './scenario.js';
import { summarize } from './summarize.js';

/**
 * The normalized outcome of one step: what the binding produced, with generated ids and
 * timestamps replaced (see {@link Normalizer}). This is what must be identical across
 * bindings; error messages are left out on purpose (only the code is normative).
 */
export interface StepOutcome {
  readonly step: string;
  readonly error?: string;
  readonly result?: Json;
  /** Stream events read by this step: `{seq, event}` with the StreamResponse JSON. */
  readonly events?: Json[];
  readonly ended?: boolean;
  readonly deliveries?: Json[];
}

/** What a step produced, before the runner labels it. */
export type StepResult = Omit<StepOutcome, 'step'>;

/**
 * Compares an outcome with a step's expectation; one line per problem (none: the step
 * passed). `message` describes a failure for the report; `sent` is the error message as the
 * binding sent it (what `messageOmits` checks).
 */
export function check(expect: Expectation, outcome: StepResult, message: string | undefined, sent?: string): string[] {
  const out: string[] = [];
  if (expect.messageOmits !== undefined && sent?.includes(expect.messageOmits))
    out.push(`the error message leaks ${JSON.stringify(expect.messageOmits)}: ${sent}`);
  if (expect.error !== undefined) {
    if (outcome.error !== expect.error)
      out.push(`expected error ${expect.error}, got ${outcome.error ? `${outcome.error} (${message})` : JSON.stringify(summarizeOutcome(outcome))}`);
  } else if (outcome.error !== undefined) {
    out.push(`unexpected error ${outcome.error}: ${message}`);
  } else if (message) {
    out.push(message);
  }
  if (expect.result !== undefined) out.push(...matchExpected(expect.result, outcome.result === undefined ? undefined : summarize(outcome.result), 'result'));
  if (expect.events !== undefined) out.push(...matchExpected(expect.events as Json[], (outcome.events ?? []).map(summarizeItem), 'events'));
  if (expect.ended !== undefined && expect.ended !== outcome.ended)
    out.push(`expected the stream ${expect.ended ? 'to end' : 'to stay open'}, ended=${outcome.ended}`);
  if (expect.deliveries !== undefined) out.push(...matchExpected(expect.deliveries as Json[], (outcome.deliveries ?? []).map(summarizeDelivery), 'deliveries'));
  return out;
}

function summarizeOutcome(outcome: StepResult): Json {
  if (outcome.result !== undefined) return summarize(outcome.result);
  if (outcome.events) return outcome.events.map(summarizeItem);
  return null;
}

function summarizeItem(item: Json): Json {
  const { seq, event } = item as { seq?: number; event: Json };
  const summary = summarize(event);
  return seq === undefined || typeof summary !== 'object' || summary === null || Array.isArray(summary) ? summary : { seq, ...summary };
}

function summarizeDelivery(delivery: Json): Json {
  const { body, ...headers } = delivery as { body: Json } & Record<string, Json>;
  const summary = summarize(body);
  return typeof summary === 'object' && summary !== null && !Array.isArray(summary) ? { ...headers, ...summary } : { ...headers, body: summary };
}
