import { sendJson, sseHead, startFakeUpstream, type FakeUpstream, type Recorded } from './fake-upstream.js';

export const TOKEN = 'openclaw-gateway-token-77';

/**
 * A small OpenClaw gateway `/v1/responses`: bearer auth, agent from `model` (`openclaw/<id>`)
 * or `x-openclaw-agent-id`, sessions keyed by `user` and reused through
 * `previous_response_id`, the streaming order of the gateway handler (event + data frames,
 * trailing `[DONE]`), and a failure path that still sends closing events after
 * `response.failed` (as a stored revision does).
 */
export class FakeGateway {
  upstream!: FakeUpstream;
  /** Response id → session key. */
  readonly responses = new Map<string, string>();
  /** What each answer should be, by input. */
  answer: (input: string, session: string, agent: string) => { deltas: string[]; fail?: string } = (input, session, agent) => ({
    deltas: [`[${agent}] `, `you said ${input}`, ` (session ${session})`],
  });

  async start(): Promise<this> {
    this.upstream = await startFakeUpstream({ 'POST /v1/responses': (req, res) => this.respond(req, res) });
    return this;
  }

  calls(): Recorded[] {
    return this.upstream.calls('POST /v1/responses');
  }

  private respond(req: Recorded, res: any): void {
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      sendJson(res, 401, { error: { message: 'Unauthorized', type: 'invalid_request_error' } });
      return;
    }
    const body = req.body;
    const fromModel = /^openclaw[/:](.+)$/.exec(body.model ?? '')?.[1];
    const agent = (req.headers['x-openclaw-agent-id'] as string | undefined) ?? fromModel ?? 'default';
    let session = body.user ? `user:${body.user}` : `fresh:${crypto.randomUUID()}`;
    if (body.previous_response_id) {
      const known = this.responses.get(body.previous_response_id);
      if (!known) {
        sendJson(res, 404, { error: { message: 'Previous response not found', type: 'invalid_request_error' } });
        return;
      }
      session = known;
    }
    const id = `resp_${crypto.randomUUID()}`;
    this.responses.set(id, session);
    const { deltas, fail } = this.answer(String(body.input), session, agent);
    const text = deltas.join('');
    const envelope = (status: string, output: unknown[] = []) => ({
      id,
      object: 'response',
      created_at: 1,
      status,
      model: body.model,
      output,
      usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 },
    });
    const item = (status: string, t: string) => ({ type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: t }], status });
    if (!body.stream) {
      if (fail) {
        sendJson(res, 500, { ...envelope('failed'), error: { code: 'api_error', message: fail } });
        return;
      }
      sendJson(res, 200, envelope('completed', [item('completed', text)]));
      return;
    }
    sseHead(res);
    const frame = (type: string, payload: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...payload })}\n\n`);
    frame('response.created', { response: envelope('in_progress') });
    frame('response.in_progress', { response: envelope('in_progress') });
    frame('response.output_item.added', { output_index: 0, item: item('in_progress', '') });
    frame('response.content_part.added', { item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text: '' } });
    for (const delta of deltas) frame('response.output_text.delta', { item_id: 'msg_1', output_index: 0, content_index: 0, delta });
    if (fail) frame('response.failed', { response: { ...envelope('failed'), error: { code: 'api_error', message: fail } } });
    frame('response.output_text.done', { item_id: 'msg_1', output_index: 0, content_index: 0, text });
    frame('response.content_part.done', { item_id: 'msg_1', output_index: 0, content_index: 0, part: { type: 'output_text', text } });
    frame('response.output_item.done', { output_index: 0, item: item('completed', text) });
    frame('response.completed', { response: envelope(fail ? 'failed' : 'completed', [item('completed', text)]) });
    res.write('data: [DONE]\n\n');
    res.end();
  }
}
