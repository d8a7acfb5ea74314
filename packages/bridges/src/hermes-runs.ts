import type { ExecutionContext } from '@a2a-polyglot/core';
import { defineBridge, type BridgeEnv, type BridgeExecutor } from './bridge.js';
import { BridgeError } from './bridge-error.js';
import { COMMON_FIELDS, type CommonSettings } from './common-settings.js';
import { ConversationMemory, remember, sessionKey, type ChatTurn } from './conversation.js';
import { runBridgeTurn } from './bridge-turn.js';
import { HermesRunsApi, type HermesOutcome } from './hermes-api.js';
import { approvalData, approvalFrom, approvalMetadata, approvalQuestion, canonicalEvent, choiceFrom, type ApprovalRequest } from './hermes-events.js';
import { field } from './settings.js';
import type { SseEvent } from '@a2a-polyglot/sse';
import { frameJson, readUpstreamSse } from './sse-reader.js';
import type { TurnWriter } from './streaming-contract.js';
import type { UpstreamResponse } from './upstream-http.js';

const NAME = 'hermes-runs';

/** Settings of the {@link hermesRunsBridge}. */
export interface HermesRunsSettings extends CommonSettings {
  /** API server origin, optionally with a `/p/<profile>` prefix. */
  readonly baseUrl: string;
  /** `API_SERVER_KEY` of the Hermes API server, sent as `Authorization: Bearer`. */
  readonly apiKey: string | undefined;
  readonly model: string | undefined;
  readonly instructions: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  /** Earlier turns of the A2A context sent as `conversation_history`; 0 = none. */
  readonly historyMessages: number;
  /** How long a run waits for the A2A client's approval answer before it is stopped. */
  readonly approvalTimeoutMs: number;
  /** Report `tool.*` / `subagent.*` events as WORKING status updates with metadata. */
  readonly reportTools: boolean;
}

/** A run we follow: its one event stream (Hermes allows a single consumer per run). */
interface FollowedRun {
  readonly runId: string;
  readonly upstream: UpstreamResponse;
  readonly events: AsyncGenerator<SseEvent>;
  readonly userText: string;
  readonly history: readonly ChatTurn[];
}

/** A run paused on an approval: its event stream stays open until the answer comes. */
interface PausedRun extends FollowedRun {
  readonly approval: ApprovalRequest;
  timer?: ReturnType<typeof setTimeout>;
}

/**
 * A Hermes Agent behind A2A through its runs API: `POST /v1/runs`, then
 * `GET /v1/runs/{id}/events`. `message.delta` → `text-delta` chunks; `approval.request` →
 * INPUT_REQUIRED with the choices (text and a data part), the follow-up message answers it
 * through `POST /v1/runs/{id}/approval` and the same event stream carries on; `run.completed`
 * → COMPLETED (its `output` when no deltas came); `run.failed` → FAILED; CancelTask →
 * `POST /v1/runs/{id}/stop` → CANCELED. Older event spellings are accepted as aliases. A
 * stream that ends without a terminal event is settled by polling `GET /v1/runs/{id}`.
 */
export const hermesRunsBridge = defineBridge<HermesRunsSettings>({
  name: NAME,
  description: 'Hermes Agent runs API (POST /v1/runs + SSE events, approvals, stop)',
  // An approval may be answered with a data part `{choice}` (see choiceFrom).
  inputModes: ['text/plain', 'application/json'],
  settings: {
    ...COMMON_FIELDS,
    baseUrl: field.url({
      description: 'API server origin, e.g. http://127.0.0.1:8642',
      env: ['HERMES_API_URL'],
      default: 'http://127.0.0.1:8642',
      aliases: ['hermes_api_url'],
    }),
    apiKey: field.string<string | undefined>({
      description: 'API_SERVER_KEY, sent as Authorization: Bearer',
      env: ['HERMES_API_KEY'],
      optional: true,
      secret: true,
      aliases: ['hermes_api_key'],
    }),
    model: field.string<string | undefined>({ description: 'per-run model', env: ['HERMES_MODEL'], optional: true, aliases: ['hermes_model'] }),
    instructions: field.string<string | undefined>({ description: 'per-run system prompt', optional: true }),
    headers: field.headers({ description: 'extra request headers', default: {}, secret: true }),
    historyMessages: field.int(0, 1000, { description: 'earlier turns sent as conversation_history', default: 20, aliases: ['num_of_messages'] }),
    approvalTimeoutMs: field.int(1, 7 * 24 * 3_600_000, {
      description: 'ms a run waits for an approval answer',
      env: ['HERMES_APPROVAL_TIMEOUT_MS'],
      default: 10 * 60_000,
    }),
    reportTools: field.bool({ description: 'report tool and subagent events as status metadata', default: false }),
  },
  create: (settings, env) => new HermesRunsExecutor(settings, env),
});

class HermesRunsExecutor implements BridgeExecutor {
  private readonly memory = new ConversationMemory();
  /** Run id of each task whose turn is executing (for the cancel hook). */
  private readonly active = new Map<string, string>();
  /** Runs waiting for an approval answer, by task. */
  private readonly paused = new Map<string, PausedRun>();
  private readonly api: HermesRunsApi;

  constructor(
    private readonly settings: HermesRunsSettings,
    private readonly env: BridgeEnv,
  ) {
    this.api = new HermesRunsApi(NAME, settings, env);
  }

  async execute(ctx: ExecutionContext): Promise<void> {
    const key = taskKey(ctx);
    try {
      await runBridgeTurn(ctx, NAME, this.env, this.settings, async ({ writer, signal }) => {
        const paused = this.takePaused(key);
        if (paused) return this.resume(ctx, writer, signal, key, paused);
        if (ctx.task)
          throw new BridgeError(
            'No Hermes run is waiting for an answer on this task any more (the approval timed out or the service restarted); send a new message',
          );
        return this.start(ctx, writer, signal, key);
      });
    } finally {
      this.active.delete(key);
    }
  }

  /** CancelTask: stop the upstream run, whether it is streaming or paused on an approval. */
  async cancel(ctx: ExecutionContext): Promise<void> {
    const key = taskKey(ctx);
    const paused = this.takePaused(key);
    if (paused) this.release(paused);
    const runId = paused?.runId ?? this.active.get(key);
    if (runId) await this.api.stop(runId, ctx.taskId);
  }

  /** Stops every run still paused on an approval (service shutdown). */
  async close(): Promise<void> {
    const all = [...this.paused.entries()];
    this.paused.clear();
    await Promise.all(
      all.map(([, run]) => {
        this.release(run);
        return this.api.stop(run.runId, undefined);
      }),
    );
  }

  private async start(ctx: ExecutionContext, writer: TurnWriter, signal: AbortSignal, key: string): Promise<void> {
    const { settings } = this;
    const memoryKey = sessionKey(ctx, this.env.agentId);
    const history = this.memory.get(memoryKey) ?? [];
    const runId = await this.api.startRun(
      {
        input: ctx.text,
        ...(history.length > 0 && { conversation_history: history }),
        ...(settings.instructions && { instructions: settings.instructions }),
        ...(settings.model && { model: settings.model }),
      },
      signal,
    );
    this.active.set(key, runId);
    writer.begin();
    let upstream: UpstreamResponse;
    try {
      upstream = await this.api.openEvents(runId, signal);
    } catch (error) {
      // Nobody would follow the run: stop it rather than leave it running upstream.
      if (!signal.aborted) void this.api.stop(runId, ctx.taskId);
      throw error;
    }
    const events = readUpstreamSse(upstream, { bridge: NAME, idleTimeoutMs: settings.idleTimeoutMs });
    await this.drive(ctx, writer, signal, key, { runId, upstream, events, userText: ctx.text, history });
  }

  private async resume(ctx: ExecutionContext, writer: TurnWriter, signal: AbortSignal, key: string, run: PausedRun): Promise<void> {
    this.active.set(key, run.runId);
    const choice = choiceFrom(ctx, run.approval.choices);
    if (!choice) {
      this.pause(key, run);
      writer.requireInput(
        approvalQuestion(run.approval, `"${ctx.text.trim().slice(0, 40)}" is not one of the choices.`),
        approvalData(run.runId, run.approval),
        approvalMetadata(run.runId, run.approval),
      );
      return;
    }
    writer.begin();
    try {
      await this.api.answerApproval(run.runId, { choice, ...(run.approval.requestId && { request_id: run.approval.requestId }) }, signal);
    } catch (error) {
      // 409: Hermes no longer waits (resolved elsewhere, or the run moved on); the stream tells what happened.
      if (!(error instanceof BridgeError && error.detail.status === 409)) {
        this.release(run);
        throw error;
      }
      this.env.logger.info({ taskId: ctx.taskId }, `${NAME} bridge: approval was no longer pending upstream`);
    }
    await this.drive(ctx, writer, signal, key, run);
  }

  /** Consumes events until the run ends (COMPLETED / FAILED) or pauses on an approval. */
  private async drive(ctx: ExecutionContext, writer: TurnWriter, signal: AbortSignal, key: string, run: FollowedRun): Promise<void> {
    const onAbort = () => run.upstream.abort(signal.reason instanceof BridgeError ? signal.reason : undefined);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    let outcome: HermesOutcome;
    try {
      outcome = await this.consume(writer, run);
    } catch (error) {
      this.release(run);
      throw error;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
    if (outcome.kind === 'approval') {
      const next: PausedRun = { ...run, approval: outcome.approval };
      this.pause(key, next);
      writer.requireInput(approvalQuestion(outcome.approval), approvalData(next.runId, next.approval), approvalMetadata(next.runId, next.approval));
      return;
    }
    this.release(run);
    const answer = writer.textSoFar || outcome.output;
    if (answer && this.settings.historyMessages > 0)
      this.memory.set(sessionKey(ctx, this.env.agentId), remember(run.history, run.userText, answer, this.settings.historyMessages));
    writer.succeed(outcome.output);
  }

  private async consume(writer: TurnWriter, run: FollowedRun): Promise<HermesOutcome> {
    for (;;) {
      const next = await run.events.next();
      if (next.done) return this.api.settleByPolling(run.runId);
      const event = frameJson(next.value, NAME);
      const name = canonicalEvent(String(next.value.event ?? event.event ?? event.type ?? ''));
      switch (name) {
        case 'message.delta':
          if (typeof event.delta === 'string') writer.delta(event.delta);
          else if (typeof event.text === 'string') writer.delta(event.text);
          break;
        case 'approval.request':
          return { kind: 'approval', approval: approvalFrom(event) };
        case 'run.completed':
          return { kind: 'completed', output: typeof event.output === 'string' ? event.output : undefined };
        case 'run.failed':
          throw new BridgeError(
            `The Hermes run failed: ${typeof event.error === 'string' ? event.error : typeof event.message === 'string' ? event.message : 'no reason given'}`,
          );
        case 'run.cancelled':
          throw new BridgeError('The Hermes run was stopped upstream');
        case 'tool.started':
        case 'tool.completed':
        case 'subagent.start':
        case 'subagent.complete':
          if (this.settings.reportTools)
            writer.progress({
              hermes: { event: name, ...(typeof event.tool === 'string' && { tool: event.tool }), ...(event.error === true && { error: true }) },
            });
          break;
        default:
          break; // reasoning, approval.responded, run.steered, unknown: not answer text
      }
    }
  }

  private pause(key: string, run: PausedRun): void {
    clearTimeout(run.timer);
    run.timer = setTimeout(() => void this.expire(key, run), this.settings.approvalTimeoutMs);
    run.timer.unref?.();
    this.paused.set(key, run);
  }

  private takePaused(key: string): PausedRun | undefined {
    const run = this.paused.get(key);
    if (!run) return undefined;
    this.paused.delete(key);
    clearTimeout(run.timer);
    return run;
  }

  private async expire(key: string, run: PausedRun): Promise<void> {
    if (this.paused.get(key) !== run) return;
    this.paused.delete(key);
    this.release(run);
    this.env.logger.info({ runId: run.runId }, `${NAME} bridge: no approval answer within ${this.settings.approvalTimeoutMs} ms; stopping the run`);
    await this.api.stop(run.runId, undefined);
  }

  /** Drops the event stream of a run we no longer follow. */
  private release(run: FollowedRun | PausedRun): void {
    if ('timer' in run) clearTimeout(run.timer);
    run.upstream.abort();
    void run.events.return(undefined).catch(() => undefined);
  }
}

function taskKey(ctx: Pick<ExecutionContext, 'tenant' | 'taskId'>): string {
  return `${ctx.tenant}\u0000${ctx.taskId}`;
}
