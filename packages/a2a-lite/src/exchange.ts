import type { StreamResponseJson, TaskJson } from './a2a-json.js';
import { textOf } from './a2a-json.js';
import { cardSummary, liteCardFromAgentCard, type A2ACardJson, type LiteCard } from './card.js';
import { formatLite, LiteError, parseLite } from './codec.js';
import { LiteRpcError, rpcCall, rpcStream, type RpcOptions } from './jsonrpc.js';
import { LiteTaskTranslator, liteToSendParams } from './mapping.js';

/** Options of {@link runLiteExchange}. */
export interface LiteExchangeOptions {
  /** The HTTP client; default the global fetch. */
  readonly fetch?: typeof fetch;
  /** Extra request headers, e.g. `{ 'x-api-key': … }` or `{ authorization: 'Bearer …' }`. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Called with each Lite message as soon as it exists (streaming agents report progress). */
  readonly onMessage?: (text: string) => void;
  /** Use SendStreamingMessage; default: when the agent card says it streams. */
  readonly stream?: boolean;
  /** Upper bound for the whole exchange. Default 120 s. */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
  /** The JSON-RPC endpoint, when it is not the one the agent card lists. */
  readonly rpcUrl?: string;
  /** Groups the A2A tasks of one chat conversation (A2A contextId). */
  readonly contextId?: string;
}

/** What a Lite peer gets back. */
export interface LiteExchangeResult {
  /** The Lite messages to post on the chat channel, in order (plain text for untagged input). */
  readonly messages: readonly string[];
  /** The A2A task that carried a `task`, when there was one (`ref=` in the messages). */
  readonly ref?: string;
  /** The agent's A2A-Lite card (for `discover`, and whenever the card was read). */
  readonly card?: LiteCard;
}

/**
 * Runs one A2A-Lite exchange against an A2A agent over JSON-RPC, with plain fetch: what an
 * A2A-Lite agent on a chat channel needs to delegate to an A2A agent.
 *
 * | Lite input | A2A call | Lite output |
 * | --- | --- | --- |
 * | `[A2A:discover]` | agent card | `[A2A:card]` with a summary of the card |
 * | `[A2A:task id=X …]` | SendMessage / SendStreamingMessage | `status` per state change, then `result` |
 * | `[A2A:task id=X ref=R]` | the same, as a follow-up of A2A task R (answer to `input-required`) | as above |
 * | `[A2A:cancel task=X ref=R]` | CancelTask R | `result … state=cancelled` |
 * | untagged text | SendMessage | the answer as plain text |
 *
 * `status`, `result`, `ack` and `card` are what a worker sends, not requests; they are
 * refused with a {@link LiteError}. Agent errors on a task become a `result … state=failed`
 * message; transport failures and a missing card throw.
 */
export async function runLiteExchange(agentUrl: string, liteText: string, options: LiteExchangeOptions = {}): Promise<LiteExchangeResult> {
  const fetchFn = options.fetch ?? ((input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => fetch(input, init));
  const { signal, dispose } = deadline(options.signal, options.timeoutMs ?? 120_000);
  const rpc: RpcOptions = { fetch: fetchFn as typeof fetch, headers: options.headers, signal };
  const messages: string[] = [];
  const emit = (texts: string[]) => {
    for (const t of texts) {
      messages.push(t);
      options.onMessage?.(t);
    }
  };
  try {
    const parsed = parseLite(liteText);
    const { card, rpcUrl } = await discover(agentUrl, rpc, options.rpcUrl);
    const liteCard = liteCardFromAgentCard(card, { id: agentIdOf(agentUrl) });
    const streaming = options.stream ?? card.capabilities?.streaming ?? false;

    if (!parsed.isA2A) {
      const result = (await rpcCall(rpcUrl, 'SendMessage', { ...liteToSendParams(liteText, { contextId: options.contextId }) }, rpc)) as StreamResponseJson;
      emit([plainAnswer(result)]);
      return { messages, card: liteCard };
    }
    switch (parsed.type) {
      case 'discover':
        emit([formatLite('card', {}, cardSummary(liteCard))]);
        return { messages, card: liteCard };
      case 'task': {
        const translator = new LiteTaskTranslator(requiredParam(parsed, 'id'), parsed.params.ref);
        const params = liteToSendParams(parsed, { contextId: options.contextId });
        const followUp = Boolean(parsed.params.ref);
        try {
          if (streaming) {
            let first = true;
            for await (const event of rpcStream(rpcUrl, 'SendStreamingMessage', params, rpc)) {
              const e = event as StreamResponseJson;
              if (first && followUp && e.task) translator.seed(e.task);
              else emit(translator.onEvent(e));
              first = false;
            }
          } else {
            emit(translator.onEvent((await rpcCall(rpcUrl, 'SendMessage', params, rpc)) as StreamResponseJson));
          }
          if (!translator.done && translator.lastState === undefined) emit(translator.fail('The agent gave no answer'));
        } catch (error) {
          if (!(error instanceof LiteRpcError) || signal.aborted) throw error;
          emit(translator.fail(error.message, error.code === -32005 || error.code === -32004 ? 'rejected' : 'failed'));
        }
        return { messages, ref: translator.ref, card: liteCard };
      }
      case 'cancel': {
        const ref = parsed.params.ref;
        if (!ref) throw new LiteError('[A2A:cancel] needs ref=<A2A task id> (it is on the status and result messages of the task)');
        const task = requiredParam(parsed, 'task');
        const translator = new LiteTaskTranslator(task, ref);
        try {
          emit(
            translator.onEvent({
              task: (await rpcCall(
                rpcUrl,
                'CancelTask',
                { id: ref, ...(parsed.params.reason && { metadata: { reason: parsed.params.reason } }) },
                rpc,
              )) as TaskJson,
            }),
          );
        } catch (error) {
          if (!(error instanceof LiteRpcError)) throw error;
          emit([formatLite('status', { task, state: 'failed', ref }, `Cannot cancel: ${error.message}`)]);
        }
        return { messages, ref, card: liteCard };
      }
      default:
        throw new LiteError(`[A2A:${parsed.type}] is what an agent sends back, not a request; nothing to send to an A2A agent`);
    }
  } finally {
    dispose();
  }
}

/** Reads the agent card and picks its JSON-RPC endpoint. */
/** A parameter `parseLite` requires for this message type (LITE_REQUIRED); its absence would be a codec bug. */
function requiredParam(parsed: { readonly type: string; readonly params: Readonly<Record<string, string | undefined>> }, name: string): string {
  const value = parsed.params[name];
  if (value === undefined) throw new LiteError(`[A2A:${parsed.type}] needs ${name}=`);
  return value;
}

async function discover(agentUrl: string, rpc: RpcOptions, rpcUrl: string | undefined): Promise<{ card: A2ACardJson; rpcUrl: string }> {
  const base = agentUrl.replace(/\/+$/, '');
  const cardUrl = base.endsWith('.json') ? base : `${base}/.well-known/agent-card.json`;
  const res = await rpc.fetch(cardUrl, { headers: { accept: 'application/json', ...rpc.headers }, signal: rpc.signal });
  if (!res.ok) throw new LiteRpcError(`No A2A agent card at ${cardUrl} (HTTP ${res.status})`);
  let card: A2ACardJson & { supportedInterfaces?: Array<{ url?: string; protocolBinding?: string }> };
  try {
    card = (await res.json()) as typeof card;
  } catch {
    throw new LiteRpcError(`The agent card at ${cardUrl} is not JSON`);
  }
  const endpoint = rpcUrl ?? card.supportedInterfaces?.find((i) => i.protocolBinding === 'JSONRPC')?.url;
  if (!endpoint) throw new LiteRpcError(`The agent card at ${cardUrl} lists no JSON-RPC interface`);
  return { card, rpcUrl: endpoint };
}

/** The answer to untagged text: the reply message, or the task's final text. */
function plainAnswer(result: StreamResponseJson): string {
  if (result.message) return textOf(result.message.parts);
  const task = result.task;
  const artifacts = (task?.artifacts ?? [])
    .map((a) => textOf(a.parts))
    .filter(Boolean)
    .join('\n\n');
  return artifacts || textOf(task?.status?.message?.parts) || `(the task ended ${task?.status?.state ?? 'without a state'})`;
}

/** A readable id for the Lite card: the last path segment of the agent URL, or its host. */
function agentIdOf(agentUrl: string): string {
  try {
    const u = new URL(agentUrl);
    const segments = u.pathname.split('/').filter((s) => s && s !== '.well-known' && !s.endsWith('.json'));
    return segments.at(-1) ?? u.hostname;
  } catch {
    return 'a2a-agent';
  }
}

function deadline(outer: AbortSignal | undefined, ms: number): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) onAbort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  const timer = setTimeout(() => controller.abort(new LiteRpcError(`The A2A-Lite exchange did not finish within ${ms} ms`)), ms);
  return {
    signal: controller.signal,
    dispose: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}
