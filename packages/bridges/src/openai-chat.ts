import type { AgentExecutor, ExecutionContext } from '@a2a-polyglot/core';
import { defineBridge, type BridgeEnv } from './bridge.js';
import { BridgeError } from './bridge-error.js';
import { COMMON_FIELDS, type CommonSettings } from './common-settings.js';
import { ConversationMemory, remember, sessionKey } from './conversation.js';
import { bearerHeader, runBridgeTurn } from './bridge-turn.js';
import { isRecord } from './json-object.js';
import { field } from './settings.js';
import { frameJson, readUpstreamSse } from './sse-reader.js';
import type { TurnWriter } from './streaming-contract.js';
import { isEventStream, openUpstream, readJsonBody, type UpstreamResponse } from './upstream-http.js';

const NAME = 'openai-chat';

/** Settings of the {@link openAiChatBridge}. */
export interface OpenAiChatSettings extends CommonSettings {
  /** API root including the version segment, as OpenAI SDKs take it: `http://host:port/v1`. */
  readonly baseUrl: string;
  readonly apiKey: string | undefined;
  readonly model: string;
  /** System prompt sent first on every call. */
  readonly instructions: string | undefined;
  /** Extra request headers (values are treated as secrets). */
  readonly headers: Readonly<Record<string, string>>;
  /** Extra body parameters (`temperature`, `max_tokens`, ...); `model`, `messages` and `stream` are the bridge's. */
  readonly parameters: Readonly<Record<string, unknown>>;
  /** Turns of earlier exchanges in the same A2A context sent as history; 0 = stateless. */
  readonly historyMessages: number;
}

/**
 * Any OpenAI-compatible Chat Completions server behind A2A (vLLM, llama.cpp, Ollama, LiteLLM,
 * Hermes, OpenClaw, OpenAI). `POST {baseUrl}/chat/completions`, streamed when the A2A call
 * streams: `delta.content` fragments become `text-delta` chunks; a non-streaming reply
 * becomes one agent message. Streams may end with `[DONE]`, with a `finish_reason`, with both
 * or with neither (a clean close); named events (`event: hermes.tool.progress`) are skipped;
 * an `error` object or `finish_reason: "error"` fails the task.
 */
export const openAiChatBridge = defineBridge<OpenAiChatSettings>({
  name: NAME,
  description: 'OpenAI-compatible Chat Completions (POST /v1/chat/completions), streaming or not',
  settings: {
    ...COMMON_FIELDS,
    baseUrl: field.url({ description: 'API root with version, e.g. http://127.0.0.1:8000/v1', env: ['OPENAI_BASE_URL'], default: 'https://api.openai.com/v1' }),
    apiKey: field.string<string | undefined>({ description: 'sent as Authorization: Bearer', env: ['OPENAI_API_KEY'], optional: true, secret: true }),
    model: field.string({ description: 'model name sent upstream', env: ['OPENAI_MODEL'] }),
    instructions: field.string<string | undefined>({ description: 'system prompt', optional: true }),
    headers: field.headers({ description: 'extra request headers', default: {}, secret: true }),
    parameters: field.object({ description: 'extra request body parameters', default: {} }),
    historyMessages: field.int(0, 1000, { description: 'earlier turns of the A2A context sent as history', default: 20 }),
  },
  create: (settings, env) => new OpenAiChatExecutor(settings, env),
});

class OpenAiChatExecutor implements AgentExecutor {
  private readonly memory = new ConversationMemory();

  constructor(
    private readonly settings: OpenAiChatSettings,
    private readonly env: BridgeEnv,
  ) {}

  async execute(ctx: ExecutionContext): Promise<void> {
    const { settings, env } = this;
    const key = sessionKey(ctx, env.agentId);
    await runBridgeTurn(ctx, NAME, env, settings, async ({ writer, signal }) => {
      writer.begin();
      const history = this.memory.get(key) ?? [];
      const messages: Array<{ role: string; content: string }> = [
        ...(settings.instructions ? [{ role: 'system', content: settings.instructions }] : []),
        ...history,
        { role: 'user', content: ctx.text },
      ];
      const upstream = await openUpstream({
        bridge: NAME,
        url: `${settings.baseUrl}/chat/completions`,
        headers: { ...settings.headers, ...bearerHeader(settings.apiKey) },
        body: { ...settings.parameters, model: settings.model, messages, stream: ctx.streaming },
        signal,
        timeoutMs: settings.timeoutMs,
        fetch: env.fetch,
      });
      const finalText = isEventStream(upstream.response)
        ? await streamChat(upstream, writer, settings.idleTimeoutMs)
        : completionText(await readJsonBody(upstream, NAME));
      const answer = writer.textSoFar || finalText;
      if (answer && settings.historyMessages > 0) this.memory.set(key, remember(history, ctx.text, answer, settings.historyMessages));
      writer.succeed(finalText);
    });
  }
}

/** Feeds `delta.content` to the writer until `[DONE]`, a finish reason or the end of the stream. */
async function streamChat(upstream: UpstreamResponse, writer: TurnWriter, idleTimeoutMs: number): Promise<undefined> {
  for await (const frame of readUpstreamSse(upstream, { bridge: NAME, idleTimeoutMs })) {
    if (frame.event !== undefined && frame.event !== 'message') continue;
    if (frame.data.trim() === '[DONE]') break;
    const chunk = frameJson(frame, NAME);
    throwIfError(chunk);
    const choice = firstChoice(chunk);
    const delta = choice?.delta;
    const content = isRecord(delta) ? delta.content : undefined;
    if (typeof content === 'string') writer.delta(content);
    else if (Array.isArray(content)) writer.delta(partsText(content));
    const finish = choice?.finish_reason;
    if (finish === 'error') throw new BridgeError(`The ${NAME} upstream ended the answer with an error`);
    if (typeof finish === 'string' && finish !== '') break;
  }
  return undefined;
}

/** The answer text of a non-streaming completion. */
function completionText(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) throw new BridgeError(`The ${NAME} upstream answered with something that is not a chat completion`);
  if (!isRecord(body)) throw new BridgeError(`The ${NAME} upstream answered with something that is not a chat completion`);
  throwIfError(body);
  if (!Array.isArray(body.choices)) throw new BridgeError(`The ${NAME} upstream answered with something that is not a chat completion (no choices)`);
  const choice = firstChoice(body);
  if (choice?.finish_reason === 'error') throw new BridgeError(`The ${NAME} upstream ended the answer with an error`);
  const message = choice?.message;
  const content = isRecord(message) ? message.content : undefined;
  return typeof content === 'string' ? content : Array.isArray(content) ? partsText(content) : undefined;
}

/** An `{error: {message}}` object (mid-stream or in a body) becomes a BridgeError. */
function throwIfError(json: Record<string, unknown>): void {
  const error = json.error;
  if (error === undefined || error === null) return;
  const message = typeof error === 'string' ? error : isRecord(error) && typeof error.message === 'string' ? error.message : 'unknown error';
  throw new BridgeError(`The ${NAME} upstream reported an error: ${message}`);
}

/** The first of a completion's `choices` when it is an object. */
function firstChoice(json: Record<string, unknown>): Record<string, unknown> | undefined {
  const choice: unknown = Array.isArray(json.choices) ? json.choices[0] : undefined;
  return isRecord(choice) ? choice : undefined;
}

/** Text of a content-parts array (`[{type: "text", text}]`). */
function partsText(parts: readonly unknown[]): string {
  return parts
    .map((p) => (typeof p === 'object' && p !== null && typeof (p as { text?: unknown }).text === 'string' ? (p as { text: string }).text : ''))
    .join('');
}
