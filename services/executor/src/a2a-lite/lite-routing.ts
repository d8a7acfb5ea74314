import {
  a2aStateToLite,
  cardSummary,
  formatLite,
  LiteTaskTranslator,
  liteCardFromAgentCard,
  parseLite,
  validateLiteCard,
  type A2ACardJson,
  type LiteCard,
  type StreamResponseJson,
} from '@a2a-polyglot/a2a-lite';
import {
  A2AError,
  A2AErrorCode,
  agentMessage,
  errors,
  interceptOperation,
  isInterrupted,
  messageText,
  singleEventStream,
  textPart,
  type CallContext,
  type OperationHandler,
  type OperationInterceptor,
} from '@a2a-polyglot/core';
import { AgentCard, Task, TaskState, type Message, type SendMessageRequest } from '@a2a-polyglot/model';
import { KnownLiteAgents } from './known-agents.js';
import type { LiteTaskIndex } from './lite-task-index.js';

/** What an A2A-Lite agent needs besides the usual handler options. */
export interface LiteHandlerOptions {
  /** The agent's id: its Lite card's `agent.id`. */
  readonly agentId: string;
  readonly index: LiteTaskIndex;
  readonly knownAgents: KnownLiteAgents;
}

/** A tagged message turned into an A2A call: forward a (rewritten) send, or answer at once. */
type Routed = { readonly kind: 'send'; readonly request: SendMessageRequest } | { readonly kind: 'answer'; readonly text: string };

/**
 * The interceptors that read A2A-Lite tags in the text of incoming messages and map them to
 * the task operations, with the caller's own CallContext (so authentication and task
 * ownership apply exactly as for the A2A calls):
 * | Incoming | Operation | Answer |
 * | --- | --- | --- |
 * | `[A2A:task id=X …]` + body | SendMessage of the body (metadata `a2aLite`); a follow-up when X (or `ref=`) names the caller's input-required task | the task, its status messages tagged |
 * | `[A2A:status task=X]`, `[A2A:result task=X]` | GetTask | `[A2A:status …]`, or `[A2A:result …]` once terminal |
 * | `[A2A:cancel task=X]` | CancelTask | `[A2A:result task=X state=cancelled]` |
 * | `[A2A:discover]` | the agent card | `[A2A:card]` + summary; with `agent=<id>` a known peer's |
 * | `[A2A:card]` + JSON card (or `agent=<id>` + prose) | caches the peer (known-agents) | `[A2A:card]` of this agent |
 * | untagged text, `ack`, other types | SendMessage, unchanged | as usual |
 *
 * Streaming sends map the same way; an answer comes as a one-message stream. Given to the
 * agent's handler as `interceptors` (SendMessage and SendStreamingMessage; every other
 * operation passes through).
 */
export function liteRouting(card: AgentCard, lite: LiteHandlerOptions): OperationInterceptor[] {
  const router = new LiteRouter(card, lite);
  return [
    interceptOperation('SendMessage', async (call, next) => {
      const routed = await router.route(call.handler, call.request, call.ctx);
      if (routed.kind === 'send') return next({ ...call, request: routed.request });
      return { payload: { $case: 'message', value: router.answer(routed.text, call.request) } };
    }),
    interceptOperation('SendStreamingMessage', async (call, next) => {
      const routed = await router.route(call.handler, call.request, call.ctx);
      if (routed.kind === 'send') return next({ ...call, request: routed.request });
      if (!card.capabilities?.streaming) throw errors.unsupported('This agent does not support streaming');
      return singleEventStream({ payload: { $case: 'message', value: router.answer(routed.text, call.request) } });
    }),
  ];
}

/** The routing rules of {@link liteRouting}, over the handler each call reached. */
class LiteRouter {
  constructor(
    private readonly card: AgentCard,
    private readonly lite: LiteHandlerOptions,
  ) {}

  answer(text: string, request: SendMessageRequest): Message {
    return agentMessage(text, '', request.message?.contextId || crypto.randomUUID());
  }

  async route(handler: OperationHandler, request: SendMessageRequest, ctx: CallContext): Promise<Routed> {
    const message = request.message;
    // An A2A follow-up (taskId set) is A2A already; untagged text is plain conversation.
    if (!message || message.taskId) return { kind: 'send', request };
    const parsed = parseLite(messageText(message));
    if (!parsed.isA2A) return { kind: 'send', request };
    const { params } = parsed;
    // The preamble (authentication first): the Lite caches are the caller's own, and the
    // answers given here (discover, card) need it as much as the operations do.
    const caller = await handler.caller(ctx, request.tenant);
    const { tenant } = caller;
    const principal = caller.principal?.id;
    switch (parsed.type) {
      case 'task': {
        const liteId = required(params, 'id', 'task');
        const followUp = await this.findTask(handler, request, ctx, principal, liteId, params.ref, (t) =>
          isInterrupted(t.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED),
        );
        const parts = [textPart(parsed.body), ...message.parts.filter((p) => p.content?.$case !== 'text')];
        return {
          kind: 'send',
          request: {
            ...request,
            message: {
              ...message,
              parts,
              ...(followUp && { taskId: followUp.id, contextId: followUp.contextId }),
              metadata: { ...message.metadata, a2aLite: { type: 'task', ...params } },
            },
          },
        };
      }
      case 'status':
      case 'result': {
        const liteId = required(params, 'task', parsed.type);
        const task = await this.findTask(handler, request, ctx, principal, liteId, params.ref);
        if (!task) throw errors.taskNotFound(liteId);
        return { kind: 'answer', text: describe(liteId, task) };
      }
      case 'cancel': {
        const liteId = required(params, 'task', 'cancel');
        const task = await this.findTask(handler, request, ctx, principal, liteId, params.ref);
        if (!task) throw errors.taskNotFound(liteId);
        const canceled = await handler.cancelTask({ tenant, id: task.id, metadata: params.reason ? { a2aLite: { reason: params.reason } } : undefined }, ctx);
        return { kind: 'answer', text: describe(liteId, canceled) };
      }
      case 'discover': {
        if (params.agent === undefined) return { kind: 'answer', text: formatLite('card', {}, cardSummary(this.ownCard())) };
        const known = await this.lite.knownAgents.get(principal, params.agent);
        if (!known)
          throw new A2AError(
            A2AErrorCode.InvalidParams,
            `No A2A-Lite agent ${JSON.stringify(params.agent)} is known here; it introduces itself with [A2A:card]`,
          );
        return { kind: 'answer', text: formatLite('card', { agent: known.id }, known.summary) };
      }
      case 'card':
        await this.cachePeer(principal, params.agent, parsed.body);
        return { kind: 'answer', text: formatLite('card', { agent: this.lite.agentId }, cardSummary(this.ownCard())) };
      default:
        return { kind: 'send', request };
    }
  }

  /**
   * The caller's task a Lite id names: `ref` (an A2A task id from an earlier answer) or the
   * newest task `principal` recorded under the id that it may see, in its context when it
   * names one, and that `accept`s. GetTask with the caller's context does the visibility check.
   */
  private async findTask(
    handler: OperationHandler,
    request: SendMessageRequest,
    ctx: CallContext,
    principal: string | undefined,
    liteId: string,
    ref: string | undefined,
    accept: (task: Task) => boolean = () => true,
  ): Promise<Task | undefined> {
    const tenant = ctx.pathTenant ?? request.tenant ?? '';
    const contextId = request.message?.contextId;
    for (const id of ref ? [ref] : this.lite.index.candidates(tenant, principal, liteId)) {
      let task: Task;
      try {
        task = await handler.getTask({ tenant: request.tenant, id, historyLength: 0 }, ctx);
      } catch (error) {
        if (error instanceof A2AError && error.code === A2AErrorCode.TaskNotFound) continue;
        throw error;
      }
      if (contextId && task.contextId !== contextId) continue;
      if (accept(task)) return task;
    }
    return undefined;
  }

  /**
   * Caches a peer's `[A2A:card]` for `principal`: a JSON `a2a-lite/1.0` card body, or prose
   * with `agent=<id>`. A body past `maxCardBytes` is refused before it is parsed.
   */
  private async cachePeer(principal: string | undefined, agentParam: string | undefined, body: string): Promise<void> {
    const { maxCardBytes } = this.lite.knownAgents.limits;
    const bytes = Buffer.byteLength(body);
    if (bytes > maxCardBytes) throw cardTooLarge(`The [A2A:card] body is ${bytes} bytes; this agent keeps cards of at most ${maxCardBytes} bytes`);
    let card: LiteCard | undefined;
    if (body.trimStart().startsWith('{')) {
      let value: unknown;
      try {
        value = JSON.parse(body);
      } catch {
        throw errors.invalidParams('The [A2A:card] body starts with "{" but is not JSON', [{ field: 'message.parts', description: 'invalid JSON card' }]);
      }
      const problems = validateLiteCard(value);
      if (problems.length > 0)
        throw errors.invalidParams(
          `Invalid a2a-lite card: ${problems.join('; ')}`,
          problems.map((description) => ({ field: 'message.parts', description })),
        );
      card = value as LiteCard;
    }
    const id = card?.agent.id ?? agentParam;
    if (id === undefined)
      throw errors.invalidParams('An [A2A:card] needs a JSON a2a-lite card as its body, or agent=<id>', [
        { field: 'message.parts', description: 'no agent id' },
      ]);
    if (!KnownLiteAgents.isValidId(id))
      throw errors.invalidParams(`Invalid A2A-Lite agent id ${JSON.stringify(id)} (letters, digits, ".", "_", "-")`, [
        { field: 'message.parts', description: 'invalid agent id' },
      ]);
    const kept = await this.lite.knownAgents.put(principal, { id, summary: card ? cardSummary(card) : body, ...(card && { card }) });
    if (!kept) throw cardTooLarge(`The [A2A:card] of ${JSON.stringify(id)} is larger than this agent's whole known-agents cache`);
  }

  private ownCard(): LiteCard {
    return liteCardFromAgentCard(AgentCard.toJSON(this.card) as A2ACardJson, { id: this.lite.agentId });
  }
}

/** InvalidParams for a card too large to keep (nothing is stored). */
function cardTooLarge(message: string): A2AError {
  return errors.invalidParams(message, [{ field: 'message.parts', description: 'card too large' }]);
}

/** The Lite id a message type needs, or InvalidParams naming it. */
function required(params: Readonly<Record<string, string>>, key: string, type: string): string {
  const value = params[key];
  if (!value) throw errors.invalidParams(`[A2A:${type}] needs ${key}=`, [{ field: 'message.parts', description: `the A2A-Lite tag has no ${key}=` }]);
  return value;
}

/** A task as the Lite peer sees it: `status` while it runs, `result` once terminal. */
function describe(liteId: string, task: Task): string {
  const [text] = new LiteTaskTranslator(liteId, task.id).onEvent({ task: Task.toJSON(task) } as StreamResponseJson);
  return text ?? formatLite('status', { task: liteId, state: a2aStateToLite(TaskState[task.status?.state ?? 0]), ref: task.id });
}
