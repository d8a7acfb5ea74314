import type { AgentExecutor, ExecutionContext } from '@a2a-polyglot/core';
import { TaskState } from '@a2a-polyglot/model';
import { Gates } from './gates.js';
import { parseScript, type ScriptStep } from './script.js';

/**
 * The conformance agent: it does exactly what the request tells it
 * (`SendMessageRequest.metadata.script`, see {@link ScriptStep}) and nothing else, so every
 * scenario's agent behaviour is data and the same request yields the same events on every
 * binding. Follow-up messages carry their own script. Blocking steps (`sleepMs`, `gate`,
 * `waitForCancel`) end when the task is canceled or the server shuts down. The cancel hook
 * does what an `onCancelReportCanceled` step in its context's script says.
 *
 * @example
 * const gates = new Gates();
 * const handler = new RequestHandler({ card, executor: new ScriptedExecutor(gates) });
 * // request metadata: { script: [{ working: 'on it' }, { gate: 'g' }, { complete: 'done' }] }
 * gates.open('g');
 */
export class ScriptedExecutor implements AgentExecutor {
  constructor(readonly gates: Gates = new Gates()) {}

  async execute(ctx: ExecutionContext): Promise<void> {
    const script = parseScript(ctx.metadata?.script);
    for (const [i, step] of script.entries()) await this.run(step, i, ctx);
  }

  /** Reports CANCELED itself when the script says so (`onCancelReportCanceled`); otherwise leaves it to the core. */
  cancel(ctx: ExecutionContext): void {
    const step = parseScript(ctx.metadata?.script).find((s) => 'onCancelReportCanceled' in s);
    if (step && 'onCancelReportCanceled' in step) ctx.setStatus(TaskState.TASK_STATE_CANCELED, statusText(step.onCancelReportCanceled));
  }

  private async run(step: ScriptStep, index: number, ctx: ExecutionContext): Promise<void> {
    if ('submit' in step) return ctx.submit();
    if ('working' in step) return ctx.working(statusText(step.working));
    if ('requireInput' in step) return ctx.requireInput(step.requireInput);
    if ('requireAuth' in step) return ctx.requireAuth(step.requireAuth);
    if ('complete' in step) return ctx.complete(statusText(step.complete));
    if ('fail' in step) return ctx.fail(statusText(step.fail));
    if ('reject' in step) return ctx.reject(statusText(step.reject));
    if ('reply' in step) return ctx.reply(step.reply);
    if ('throw' in step) throw new Error(step.throw);
    if ('artifact' in step) {
      ctx.artifact({ ...step.artifact, artifactId: step.artifact.artifactId ?? `artifact-${index}` });
      return;
    }
    if ('echo' in step) {
      ctx.artifact({ artifactId: step.echo, name: 'echo', text: ctx.text, lastChunk: true });
      return;
    }
    if ('sleepMs' in step) return sleep(step.sleepMs, ctx.signal);
    if ('gate' in step) return this.gates.wait(step.gate, ctx.signal);
    if ('waitForCancel' in step) return untilAborted(ctx.signal);
    // onCancelReportCanceled: read by cancel(), nothing to do here.
  }
}

/** A step's status message: `true` means none. */
function statusText(value: string | true): string | undefined {
  return value === true ? undefined : value;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

function untilAborted(signal: AbortSignal): Promise<void> {
  if (signal.aborted) return Promise.resolve();
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
}
