import type { BridgeEnv } from './bridge.js';
import { BridgeError } from './bridge-error.js';
import { bearerHeader } from './bridge-turn.js';
import type { ApprovalRequest } from './hermes-events.js';
import { isEventStream, openUpstream, readJsonBody, type UpstreamResponse } from './upstream-http.js';

/** The settings the runs-API calls need (a subset of the bridge's settings). */
export interface HermesApiSettings {
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
}

/** How a followed run ended its turn: completed (with its output), or paused on an approval. */
export type HermesOutcome =
  | { readonly kind: 'completed'; readonly output: string | undefined }
  | { readonly kind: 'approval'; readonly approval: ApprovalRequest };

/**
 * The Hermes runs API as the hermes-runs bridge calls it: start a run, open its event stream,
 * answer an approval, ask a run's status, stop a run. Each call carries the bridge's headers
 * and `Authorization: Bearer <API_SERVER_KEY>`; failures are {@link BridgeError}s.
 */
export class HermesRunsApi {
  constructor(
    private readonly bridge: string,
    private readonly settings: HermesApiSettings,
    private readonly env: Pick<BridgeEnv, 'fetch' | 'logger'>,
  ) {}

  /** `POST /v1/runs`; the id of the run Hermes started. */
  async startRun(body: Record<string, unknown>, signal: AbortSignal): Promise<string> {
    const started = await openUpstream({ ...this.request('/v1/runs', signal), body });
    const answer = (await readJsonBody(started, this.bridge)) as Record<string, unknown> | null;
    const runId = answer?.run_id;
    if (typeof runId !== 'string' || !/^[A-Za-z0-9_.:-]{1,200}$/.test(runId))
      throw new BridgeError(`The ${this.bridge} upstream accepted the run but returned no usable run_id`);
    return runId;
  }

  /** `GET /v1/runs/{id}/events`: the run's one event stream. */
  async openEvents(runId: string, signal: AbortSignal): Promise<UpstreamResponse> {
    const upstream = await openUpstream({ ...this.request(`${runPath(runId)}/events`, signal), method: 'GET' });
    if (!isEventStream(upstream.response)) {
      upstream.abort();
      throw new BridgeError(`The ${this.bridge} upstream answered the event stream request with something that is not an event stream`);
    }
    return upstream;
  }

  /** `POST /v1/runs/{id}/approval` with the chosen answer. */
  async answerApproval(runId: string, body: Record<string, unknown>, signal: AbortSignal): Promise<void> {
    const answered = await openUpstream({ ...this.request(`${runPath(runId)}/approval`, signal), body });
    await readJsonBody(answered, this.bridge);
  }

  /** The event stream ended without a terminal event: asks the run's status once (`GET /v1/runs/{id}`). */
  async settleByPolling(runId: string): Promise<HermesOutcome> {
    let status: Record<string, unknown>;
    try {
      const polled = await openUpstream({ ...this.request(runPath(runId), this.callTimeout()), method: 'GET' });
      status = ((await readJsonBody(polled, this.bridge)) ?? {}) as Record<string, unknown>;
    } catch {
      throw new BridgeError(`The ${this.bridge} upstream event stream ended before the run finished`);
    }
    if (status.status === 'completed') return { kind: 'completed', output: typeof status.output === 'string' ? status.output : undefined };
    if (status.status === 'failed') throw new BridgeError(`The Hermes run failed: ${typeof status.error === 'string' ? status.error : 'no reason given'}`);
    throw new BridgeError(
      `The ${this.bridge} upstream event stream ended before the run finished (run status: ${typeof status.status === 'string' ? status.status : 'unknown'})`,
    );
  }

  /** `POST /v1/runs/{id}/stop`; a failure is logged, not thrown (the run is being left anyway). */
  async stop(runId: string, taskId: string | undefined): Promise<void> {
    try {
      const stopped = await openUpstream({ ...this.request(`${runPath(runId)}/stop`, this.callTimeout()), body: {} });
      await readJsonBody(stopped, this.bridge);
    } catch (error) {
      this.env.logger.warn(
        { taskId, runId },
        `${this.bridge} bridge: stopping the upstream run failed: ${error instanceof Error ? error.message : String(error)}`,
      );
    }
  }

  /** The signal of a call made outside a turn (status, stop): the request timeout plus a second. */
  private callTimeout(): AbortSignal {
    return AbortSignal.timeout(this.settings.timeoutMs + 1000);
  }

  private request(path: string, signal: AbortSignal) {
    const { settings } = this;
    return {
      bridge: this.bridge,
      url: `${settings.baseUrl}${path}`,
      headers: { ...settings.headers, ...bearerHeader(settings.apiKey) },
      signal,
      timeoutMs: settings.timeoutMs,
      fetch: this.env.fetch,
    };
  }
}

function runPath(runId: string): string {
  return `/v1/runs/${encodeURIComponent(runId)}`;
}
