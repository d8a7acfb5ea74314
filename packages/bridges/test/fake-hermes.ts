import type { ServerResponse } from 'node:http';
import { data, sendJson, sseHead, startFakeUpstream, type FakeUpstream, type Recorded } from './fake-upstream.js';

/** One step of a scripted Hermes run. */
export type Step = EventStep | ApprovalStep | WaitStopStep | CloseStep;
/** Emit one event with these fields. */
type EventStep = { readonly event: string; readonly [field: string]: unknown };
/** Emit `approval.request` (or `name`), wait for POST …/approval, then emit `approval.responded`. */
type ApprovalStep = { readonly approval: Record<string, unknown>; readonly name?: string };
/** Keep the run going until POST …/stop, then emit `run.cancelled`. */
type WaitStopStep = { readonly waitStop: true };
/** Close the event stream without a terminal event, leaving the run in status `closeWith`. */
type CloseStep = { readonly closeWith: string; readonly output?: string };

const isApproval = (s: Step): s is ApprovalStep => 'approval' in s;
const isWaitStop = (s: Step): s is WaitStopStep => 'waitStop' in s;
const isClose = (s: Step): s is CloseStep => 'closeWith' in s;

interface Run {
  readonly id: string;
  readonly steps: readonly Step[];
  status: string;
  output?: string;
  error?: string;
  approved?: (choice: string) => void;
  stopped?: () => void;
  stopCalls: number;
  choices: string[];
}

/**
 * A small Hermes API server (runs API) following the upstream's wire rules: bearer auth with
 * the OpenAI-style error envelope, `202 {run_id, status}`, data-only SSE frames keyed by the
 * JSON `event` field, `: stream closed` after the terminal event, approvals validated by
 * `choice`, stop → `run.cancelled`, status polling.
 */
export class FakeHermes {
  upstream!: FakeUpstream;
  readonly runs = new Map<string, Run>();
  /** The script of the next runs, by input text; default: one delta and completed. */
  script: (input: string) => readonly Step[] = (input) => [
    { event: 'message.delta', delta: `echo ${input}` },
    { event: 'run.completed', output: `echo ${input}` },
  ];

  /** When set, GET …/events answers with this status (a lost run). */
  eventsStatus: number | undefined;

  constructor(private readonly key: string) {}

  get url(): string {
    return this.upstream.url;
  }

  async start(): Promise<this> {
    this.upstream = await startFakeUpstream({
      'POST /v1/runs': (req, res) => void (this.auth(req, res) && this.create(req, res)),
      'GET /v1/runs/*': (req, res) => void (this.auth(req, res) && this.get(req, res)),
      'POST /v1/runs/*': (req, res) => void (this.auth(req, res) && this.post(req, res)),
    });
    return this;
  }

  close(): Promise<void> {
    return this.upstream.close();
  }

  calls(suffix: string): Recorded[] {
    return this.upstream.requests.filter((r) => r.path.endsWith(suffix));
  }

  private auth(req: Recorded, res: ServerResponse): boolean {
    if (req.headers.authorization === `Bearer ${this.key}`) return true;
    sendJson(res, 401, { error: { message: 'Invalid gateway API key (API_SERVER_KEY)', type: 'gateway_auth_error', code: 'gateway_auth_failed' } });
    return false;
  }

  private create(req: Recorded, res: ServerResponse): void {
    if (typeof req.body?.input !== 'string' && !Array.isArray(req.body?.input)) {
      sendJson(res, 400, { error: { message: 'Missing input', type: 'invalid_request_error' } });
      return;
    }
    const id = `run_${crypto.randomUUID().replace(/-/g, '')}`;
    this.runs.set(id, { id, steps: this.script(String(req.body.input)), status: 'queued', stopCalls: 0, choices: [] });
    sendJson(res, 202, { run_id: id, status: 'started', replayed: false });
  }

  private get(req: Recorded, res: ServerResponse): void {
    const [, , , id, tail] = req.path.split('/');
    const run = this.runs.get(id ?? '');
    if (!run) {
      sendJson(res, 404, { error: { message: 'Run not found', type: 'invalid_request_error', code: 'run_not_found' } });
      return;
    }
    if (tail === 'events' && this.eventsStatus) {
      sendJson(res, this.eventsStatus, { error: { message: 'Run not found', code: 'run_not_found' } });
      return;
    }
    if (tail === 'events') return void this.events(run, res);
    sendJson(res, 200, {
      object: 'hermes.run',
      run_id: run.id,
      status: run.status,
      ...(run.output && { output: run.output }),
      ...(run.error && { error: run.error }),
    });
  }

  private post(req: Recorded, res: ServerResponse): void {
    const [, , , id, action] = req.path.split('/');
    const run = this.runs.get(id ?? '');
    if (!run) {
      sendJson(res, 404, { error: { message: 'Run not found', code: 'run_not_found' } });
      return;
    }
    if (action === 'approval') {
      const choice = String(req.body?.choice ?? '').toLowerCase();
      if (!['once', 'session', 'always', 'deny'].includes(choice)) {
        sendJson(res, 400, { error: { message: 'Invalid choice', code: 'invalid_approval_choice' } });
        return;
      }
      if (!run.approved) {
        sendJson(res, 409, { error: { message: 'Nothing is waiting for approval', code: 'approval_not_pending' } });
        return;
      }
      run.choices.push(choice);
      run.approved(choice);
      sendJson(res, 200, { object: 'hermes.run.approval_response', run_id: run.id, choice, resolved: 1 });
      return;
    }
    if (action === 'stop') {
      run.stopCalls++;
      if (['completed', 'failed', 'cancelled'].includes(run.status)) {
        sendJson(res, 200, { object: 'hermes.run', run_id: run.id, status: run.status });
        return;
      }
      run.status = 'stopping';
      run.approved?.('deny');
      run.stopped?.();
      if (!run.stopped) run.status = 'cancelled';
      sendJson(res, 200, { run_id: run.id, status: 'stopping' });
      return;
    }
    sendJson(res, 404, { error: { message: 'no such action' } });
  }

  private async events(run: Run, res: ServerResponse): Promise<void> {
    sseHead(res);
    run.status = 'running';
    const emit = (event: string, fields: Record<string, unknown> = {}) =>
      res.write(`${data({ event, run_id: run.id, timestamp: Date.now() / 1000, ...fields })}\n\n`);
    for (const step of run.steps) {
      if (res.destroyed) return;
      if (isApproval(step)) {
        run.status = 'waiting_for_approval';
        const answered = new Promise<string>((resolve) => (run.approved = resolve));
        emit(step.name ?? 'approval.request', { ...step.approval });
        const choice = await answered;
        run.approved = undefined;
        if (run.status === 'stopping') break;
        run.status = 'running';
        emit('approval.responded', { choice, resolved: 1 });
      } else if (isWaitStop(step)) {
        await new Promise<void>((resolve) => (run.stopped = resolve));
        break;
      } else if (isClose(step)) {
        run.status = step.closeWith;
        run.output = step.output;
        res.end();
        return;
      } else {
        const ev = step as EventStep;
        if (ev.event === 'run.completed') {
          run.status = 'completed';
          run.output = ev.output as string | undefined;
        }
        if (ev.event === 'run.failed') {
          run.status = 'failed';
          run.error = ev.error as string | undefined;
        }
        const { event, ...fields } = ev;
        emit(event, fields);
      }
    }
    if (run.status === 'stopping') {
      run.status = 'cancelled';
      if (!res.destroyed) emit('run.cancelled');
    }
    if (!res.destroyed) {
      res.write(': stream closed\n\n');
      res.end();
    }
  }
}
