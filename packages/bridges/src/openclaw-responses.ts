import type { AgentExecutor, ExecutionContext } from '@a2a-polyglot/core';
import { defineBridge, type BridgeEnv } from './bridge.js';
import { BridgeError } from './bridge-error.js';
import { COMMON_FIELDS, type CommonSettings } from './common-settings.js';
import { ConversationMemory, sessionKey } from './conversation.js';
import { bearerHeader, runBridgeTurn } from './bridge-turn.js';
import { field } from './settings.js';
import { frameJson, readUpstreamSse } from './sse-reader.js';
import type { TurnWriter } from './streaming-contract.js';
import { isEventStream, openUpstream, readJsonBody, type UpstreamResponse } from './upstream-http.js';

const NAME = 'openclaw-responses';

/** Settings of the {@link openClawResponsesBridge}. */
export interface OpenClawResponsesSettings extends CommonSettings {
  /** Gateway origin (the HTTP endpoints share the gateway's port). */
  readonly baseUrl: string;
  /** Gateway token or password, sent as `Authorization: Bearer`. */
  readonly token: string | undefined;
  /** The OpenClaw agent to talk to. */
  readonly agentId: string;
  /** Overrides the `model` field (default `openclaw/<agentId>`). */
  readonly model: string | undefined;
  /** Also send `x-openclaw-agent-id` (the gateway's compatibility override). */
  readonly agentHeader: boolean;
  /** How an A2A contextId keeps one OpenClaw session: `user`, `previous_response_id`, both or none. */
  readonly continuity: 'both' | 'user' | 'previous_response_id' | 'none';
  readonly instructions: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/**
 * An OpenClaw gateway agent behind A2A through its OpenResponses endpoint,
 * `POST {baseUrl}/v1/responses`, streamed when the A2A call streams. The agent is chosen by
 * `model: "openclaw/<agentId>"` (and `x-openclaw-agent-id`); the A2A contextId maps to one
 * gateway session through a stable `user` key derived from it and the last
 * `previous_response_id` of that context. `response.output_text.delta` events become
 * `text-delta` chunks; the first terminal event (`response.completed`, `.incomplete`,
 * `.failed`, `error`) decides the outcome; `[DONE]` is optional.
 */
export const openClawResponsesBridge = defineBridge<OpenClawResponsesSettings>({
  name: NAME,
  description: 'OpenClaw gateway OpenResponses API (POST /v1/responses), streaming or not',
  settings: {
    ...COMMON_FIELDS,
    baseUrl: field.url({ description: 'gateway origin, e.g. http://127.0.0.1:18789', env: ['OPENCLAW_GATEWAY_URL'], default: 'http://127.0.0.1:18789' }),
    token: field.string<string | undefined>({
      description: 'gateway token or password',
      env: ['OPENCLAW_GATEWAY_TOKEN', 'OPENCLAW_GATEWAY_PASSWORD'],
      optional: true,
      secret: true,
    }),
    agentId: field.string({ description: 'OpenClaw agent id', env: ['OPENCLAW_AGENT_ID'], default: 'default' }),
    model: field.string<string | undefined>({ description: 'model field override', optional: true }),
    agentHeader: field.bool({ description: 'send x-openclaw-agent-id too', default: true }),
    continuity: field.oneOf(['both', 'user', 'previous_response_id', 'none'], { description: 'how a contextId keeps one session', default: 'both' }),
    instructions: field.string<string | undefined>({ description: 'instructions sent with every request', optional: true }),
    headers: field.headers({ description: 'extra request headers', default: {}, secret: true }),
    parameters: field.object({ description: 'extra request body parameters', default: {} }),
  },
  create: (settings, env) => new OpenClawResponsesExecutor(settings, env),
});

class OpenClawResponsesExecutor implements AgentExecutor {
  /** Last response id per conversation, for `previous_response_id`. */
  private readonly lastResponse = new ConversationMemory<string>();

  constructor(
    private readonly settings: OpenClawResponsesSettings,
    private readonly env: BridgeEnv,
  ) {}

  async execute(ctx: ExecutionContext): Promise<void> {
    const { settings, env } = this;
    const key = sessionKey(ctx, env.agentId);
    const useUser = settings.continuity === 'both' || settings.continuity === 'user';
    const usePrevious = settings.continuity === 'both' || settings.continuity === 'previous_response_id';
    await runBridgeTurn(ctx, NAME, env, settings, async ({ writer, signal }) => {
      writer.begin();
      const previous = usePrevious ? this.lastResponse.get(key) : undefined;
      const call = (previousId: string | undefined) =>
        openUpstream({
          bridge: NAME,
          url: `${settings.baseUrl}/v1/responses`,
          headers: {
            ...settings.headers,
            ...bearerHeader(settings.token),
            ...(settings.agentHeader && { 'x-openclaw-agent-id': settings.agentId }),
          },
          body: {
            ...settings.parameters,
            model: settings.model ?? `openclaw/${settings.agentId}`,
            input: ctx.text,
            stream: ctx.streaming,
            ...(settings.instructions && { instructions: settings.instructions }),
            ...(useUser && { user: key }),
            ...(previousId && { previous_response_id: previousId }),
          },
          signal,
          timeoutMs: settings.timeoutMs,
          fetch: env.fetch,
        });
      let upstream: UpstreamResponse;
      try {
        upstream = await call(previous);
      } catch (error) {
        // The gateway forgot the chain (restart, expiry): carry on with the `user` session.
        if (!(previous && error instanceof BridgeError && error.detail.status === 404)) throw error;
        env.logger.info({ taskId: ctx.taskId }, `${NAME} bridge: previous response unknown upstream; continuing without it`);
        upstream = await call(undefined);
      }
      const outcome = isEventStream(upstream.response)
        ? await streamResponse(upstream, writer, settings.idleTimeoutMs)
        : finalResponse(await readJsonBody(upstream, NAME));
      if (outcome.responseId && usePrevious) this.lastResponse.set(key, outcome.responseId);
      writer.succeed(outcome.text);
    });
  }
}

/** What a finished response left: its id (for the chain) and its full text (if no deltas came). */
interface Outcome {
  readonly responseId: string | undefined;
  readonly text: string | undefined;
}

async function streamResponse(upstream: UpstreamResponse, writer: TurnWriter, idleTimeoutMs: number): Promise<Outcome> {
  let responseId: string | undefined;
  for await (const frame of readUpstreamSse(upstream, { bridge: NAME, idleTimeoutMs })) {
    if (frame.data.trim() === '[DONE]') break;
    const event = frameJson(frame, NAME);
    const type = typeof event.type === 'string' ? event.type : frame.event;
    const response = event.response as Record<string, unknown> | undefined;
    if (typeof response?.id === 'string') responseId = response.id;
    switch (type) {
      case 'response.output_text.delta':
        if (typeof event.delta === 'string') writer.delta(event.delta);
        break;
      case 'response.completed':
      case 'response.incomplete':
        // The first terminal event is authoritative (some builds send more after a failure).
        return finalResponse(response);
      case 'response.failed':
        throw failure(response);
      case 'error':
        throw new BridgeError(`The ${NAME} upstream reported an error: ${messageOf(event) ?? 'unknown error'}`);
      default:
        break;
    }
  }
  return { responseId, text: undefined };
}

/** A complete response resource (non-streaming body, or the envelope of a terminal event). */
function finalResponse(body: unknown): Outcome {
  if (typeof body !== 'object' || body === null) throw new BridgeError(`The ${NAME} upstream answered with something that is not a response`);
  const response = body as Record<string, unknown>;
  if (response.status === 'failed' || (response.error !== undefined && response.error !== null)) throw failure(response);
  return { responseId: typeof response.id === 'string' ? response.id : undefined, text: outputText(response) };
}

function failure(response: Record<string, unknown> | undefined): BridgeError {
  const message = messageOf(response?.error) ?? 'unknown error';
  return new BridgeError(`The ${NAME} upstream run failed: ${message}`);
}

function messageOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const v = value as Record<string, unknown>;
  return typeof v.message === 'string' ? v.message : messageOf(v.error);
}

/** Text of `output[]` message items (`output_text` parts). */
function outputText(response: Record<string, unknown>): string | undefined {
  if (!Array.isArray(response.output)) return undefined;
  let text = '';
  for (const item of response.output as Array<Record<string, unknown>>) {
    if (item?.type !== 'message' || !Array.isArray(item.content)) continue;
    for (const part of item.content as Array<Record<string, unknown>>) if (part?.type === 'output_text' && typeof part.text === 'string') text += part.text;
  }
  return text === '' ? undefined : text;
}
