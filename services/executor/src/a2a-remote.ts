import { type BindingKey, Client, clientFailureOf, GRPC_BINDING } from '@a2a-polyglot/client';
import { grpcTransportFactory } from '@a2a-polyglot/client/grpc';
import { type BridgeEnv, type BridgeExecutor, safeUrl } from '@a2a-polyglot/bridges';
import { A2AError, A2AErrorCode, type ExecutionContext, isInterrupted, isTerminal } from '@a2a-polyglot/core';
import { type Artifact, type Message, Role, type SendMessageConfiguration, type StreamResponse, type Task, TaskState } from '@a2a-polyglot/model';
import { LRUCache } from 'lru-cache';
import { setTimeout as delay } from 'node:timers/promises';

/** Settings of {@link createRemoteAgent} (the `a2a-remote` handler). */
export interface RemoteAgentSettings {
  /** The remote agent's card URL (ending in `.json`) or its base URL. */
  readonly url: string;
  /** Headers sent on every call to the remote, the card GET included (auth). */
  readonly headers: Readonly<Record<string, string>>;
  /** Only this binding is used to reach the remote. Unset: the first one of the card's that the client speaks. */
  readonly binding: 'jsonrpc' | 'rest' | 'grpc' | undefined;
  /** Deadline of a unary call to the remote, and of opening a stream. */
  readonly timeoutMs: number;
}

/** The remote task behind one of ours. */
interface RemoteTask {
  readonly id: string;
  readonly contextId: string;
  canceled?: boolean;
}

/** How many task and context mappings are kept (in memory; the oldest go first). */
const MAX_MAPPINGS = 10_000;

/**
 * An agent that fronts another A2A server (v1.0 or v0.3), so it is reachable on every binding
 * this service serves. Each incoming message is sent to the remote agent (streaming unless its
 * card says `capabilities.streaming: false`; then the send returns at once and the remote task
 * is read with GetTask until it settles) and every remote event is republished on our
 * task: status updates with the remote's state, artifact updates, and a direct Message reply
 * as our reply. Our task id maps to the remote task (and our context to the remote context),
 * so a follow-up to an input-required task continues the remote task; a cancel of ours cancels
 * the remote one. An unreachable or failing remote fails our task with the reason.
 *
 * The mappings live in memory: after a restart, a follow-up to a task of an earlier run fails
 * with a message saying so.
 */
export function createRemoteAgent(settings: RemoteAgentSettings, env: BridgeEnv): BridgeExecutor {
  const tasks = new LRUCache<string, RemoteTask>({ max: MAX_MAPPINGS });
  const contexts = new LRUCache<string, string>({ max: MAX_MAPPINGS });
  let connecting: Promise<Client> | undefined;
  // What task messages and logs name: no user info, no query (where credentials hide).
  const where = safeUrl(settings.url).replace(/\/$/, '');
  const fail = (ctx: ExecutionContext, text: string) => ctx.fail(env.redactor.text(text));

  const connect = (): Promise<Client> => {
    if (!connecting) {
      const bindings: BindingKey[] | undefined = settings.binding ? [settings.binding] : undefined;
      connecting = Client.connect(settings.url, {
        headers: { ...settings.headers },
        timeoutMs: settings.timeoutMs,
        fetch: env.fetch,
        transports: { [GRPC_BINDING]: grpcTransportFactory },
        ...(bindings ? { bindings } : {}),
      });
      // A failed connection is not kept: the next task tries again.
      connecting.catch(() => {
        connecting = undefined;
      });
    }
    return connecting;
  };

  /** Cancels the remote task (once); resolves to the remote's answer, undefined when there is none. */
  const cancelRemote = async (remote: RemoteTask, metadata?: Record<string, unknown>): Promise<Task | undefined> => {
    if (remote.canceled) return undefined;
    remote.canceled = true;
    try {
      const client = await connect();
      return await client.cancelTask({ id: remote.id, metadata }, { timeoutMs: settings.timeoutMs });
    } catch (error) {
      env.logger.warn({ remoteTaskId: remote.id, err: error }, `Could not cancel the remote task at ${where}`);
      return undefined;
    }
  };

  return {
    async execute(ctx) {
      let remote = tasks.get(ctx.taskId);
      if (ctx.task && !remote) {
        fail(ctx, 'The remote task behind this task is not known any more (the service restarted?); send a new message to start over');
        return;
      }
      let client: Client;
      try {
        client = await connect();
      } catch (error) {
        fail(ctx, `Could not connect to the remote agent: ${reason(error)}`);
        return;
      }
      const message = remoteMessage(ctx, remote?.id ?? '', remote?.contextId ?? contexts.get(ctx.contextId) ?? '');
      const configuration = remoteConfiguration(ctx.configuration);
      // The request's metadata is the caller's word to the agent (extensions read it): passed on as it came.
      const metadata = ctx.metadata;
      const publisher = new Publisher(ctx, Boolean(ctx.task));
      const learn = (task: { id: string; contextId: string }) => {
        if (!task.id || remote?.id === task.id) return;
        remote = { id: task.id, contextId: task.contextId };
        tasks.set(ctx.taskId, remote);
        if (task.contextId) contexts.set(ctx.contextId, task.contextId);
        // A cancel that came before the remote task was known is passed on now.
        if (ctx.signal.aborted) void cancelRemote(remote);
      };
      try {
        if (client.card.capabilities?.streaming === false) {
          const send = (returnImmediately: boolean) =>
            client.sendMessage({ message, configuration: { ...configuration, returnImmediately }, metadata }, { signal: ctx.signal });
          // Answered at once, so our task shows the remote's progress (and can be canceled) while it runs;
          // a remote that runs tasks only while their caller waits refuses that, and gets a send that waits.
          const response = await send(true).catch((error: unknown) => {
            if (error instanceof A2AError && error.code === A2AErrorCode.UnsupportedOperation) return send(false);
            throw error;
          });
          const payload = response.payload;
          if (payload?.$case === 'task') {
            learn(payload.value);
            publisher.task(await followTask(client, payload.value, publisher, ctx.signal), true);
          } else if (payload?.$case === 'message') {
            if (payload.value.contextId) contexts.set(ctx.contextId, payload.value.contextId);
            publisher.message(payload.value);
          }
          return;
        }
        const stream = client.sendStreamingMessage({ message, configuration, metadata }, { signal: ctx.signal });
        for await (const { event } of stream) {
          const payload = event.payload;
          if (!payload) continue;
          if (payload.$case === 'task') learn(payload.value);
          else if (payload.$case === 'statusUpdate' || payload.$case === 'artifactUpdate')
            learn({ id: payload.value.taskId, contextId: payload.value.contextId });
          else if (payload.value.contextId) contexts.set(ctx.contextId, payload.value.contextId);
          publisher.event(payload);
        }
      } catch (error) {
        if (ctx.signal.aborted) return; // canceled (or shutting down): the core settles the task
        const lost = clientFailureOf(error) === 'unreachable' || clientFailureOf(error) === 'cut';
        fail(ctx, lost ? `Lost the remote agent at ${where}: ${reason(error)}` : `The remote agent at ${where} failed: ${reason(error)}`);
      }
    },

    async cancel(ctx) {
      const remote = tasks.get(ctx.taskId);
      if (!remote) return;
      // The remote agent's word on the cancel (its status message) is ours too.
      const status = (await cancelRemote(remote, ctx.metadata))?.status;
      if (status?.state === TaskState.TASK_STATE_CANCELED && status.message) ctx.setStatus(TaskState.TASK_STATE_CANCELED, ours(status.message));
    },

    async close() {
      const pending = connecting;
      connecting = undefined;
      if (pending) await pending.then((c) => c.close()).catch(() => undefined);
    },
  };
}

/** The first and the longest wait between two reads of a remote task that cannot be streamed (doubling in between). */
const POLL_FIRST_MS = 50;
const POLL_MAX_MS = 1000;

/**
 * Reads a remote task again and again (GetTask, the only way to follow it on a remote without
 * streams) until it settles (terminal or interrupted), publishing each new status on the way;
 * resolves to the settled task. Stops with the signal (cancel, shutdown).
 */
async function followTask(client: Client, task: Task, publisher: Publisher, signal: AbortSignal): Promise<Task> {
  let current = task;
  let wait = POLL_FIRST_MS;
  while (current.status && !isTerminal(current.status.state) && !isInterrupted(current.status.state)) {
    publisher.progress(current);
    await delay(wait, undefined, { signal });
    wait = Math.min(wait * 2, POLL_MAX_MS);
    current = await client.getTask({ id: current.id }, { signal });
  }
  return current;
}

/** The incoming message as the remote gets it: a fresh messageId, the remote's task and context ids. */
function remoteMessage(ctx: ExecutionContext, taskId: string, contextId: string): Partial<Message> {
  return {
    // Fresh: our callers' messageIds would meet at the remote as one caller's (idempotent sends).
    messageId: crypto.randomUUID(),
    role: Role.ROLE_USER,
    parts: ctx.message.parts,
    metadata: ctx.message.metadata,
    extensions: ctx.message.extensions,
    taskId,
    contextId,
  };
}

/** What of our request's configuration makes sense at the remote: output modes and blocking; no push config, no history. */
function remoteConfiguration(configuration: SendMessageConfiguration | undefined): Partial<SendMessageConfiguration> {
  return { acceptedOutputModes: configuration?.acceptedOutputModes ?? [] };
}

/** A remote message as our status message or reply: its content, our ids (filled in by the core). */
function ours(message: Message | undefined): Partial<Message> | undefined {
  if (!message) return undefined;
  return { role: message.role || Role.ROLE_AGENT, parts: message.parts, metadata: message.metadata, extensions: message.extensions };
}

/** Republishes remote events on our task through the execution context. */
class Publisher {
  private reported = false;
  private first = true;
  /** The remote status published last (see {@link progress}). */
  private last: { state: TaskState; messageId: string | undefined } | undefined;

  constructor(
    private readonly ctx: ExecutionContext,
    private readonly followUp: boolean,
  ) {}

  event(payload: NonNullable<StreamResponse['payload']>): void {
    const first = this.first;
    this.first = false;
    switch (payload.$case) {
      case 'task':
        // A follow-up stream opens with the task as it was before the message: nothing new.
        if (!(first && this.followUp)) this.task(payload.value, !first);
        return;
      case 'statusUpdate':
        if (payload.value.status) this.status(payload.value.status.state, payload.value.status.message, payload.value.metadata);
        return;
      case 'artifactUpdate': {
        const { artifact, append, lastChunk, metadata } = payload.value;
        if (artifact)
          this.artifact(artifact, { append, lastChunk, metadata: artifact.metadata || metadata ? { ...artifact.metadata, ...metadata } : undefined });
        return;
      }
      case 'message':
        this.message(payload.value);
        return;
    }
  }

  /** A whole remote task: its artifacts (when asked), then its status. */
  task(task: Task, withArtifacts: boolean): void {
    if (withArtifacts) {
      for (const artifact of task.artifacts) this.artifact(artifact, { lastChunk: true, metadata: artifact.metadata });
    }
    if (task.status) this.status(task.status.state, task.status.message, undefined);
  }

  /** A remote artifact (or chunk of one) as ours: same id, name and parts. */
  private artifact(artifact: Artifact, chunk: { append?: boolean; lastChunk?: boolean; metadata: Record<string, unknown> | undefined }): void {
    this.reported = true;
    this.ctx.artifact({
      artifactId: artifact.artifactId || undefined,
      name: artifact.name || undefined,
      description: artifact.description || undefined,
      parts: artifact.parts,
      ...chunk,
    });
  }

  /** A Message answer: our reply when nothing was reported yet, else the status message that completes our task. */
  message(message: Message): void {
    if (!this.reported && !this.followUp) this.ctx.reply(ours(message) ?? '');
    else this.ctx.complete(ours(message));
    this.reported = true;
  }

  /** A remote task's status while it runs, when it is not the one published last. */
  progress(task: Task): void {
    const status = task.status;
    if (!status || (status.state === this.last?.state && status.message?.messageId === this.last.messageId)) return;
    this.status(status.state, status.message, undefined);
  }

  private status(state: TaskState, message: Message | undefined, metadata: Record<string, unknown> | undefined): void {
    if (state === TaskState.TASK_STATE_UNSPECIFIED) return;
    this.last = { state, messageId: message?.messageId };
    if (state === TaskState.TASK_STATE_SUBMITTED) {
      if (!this.reported && !this.followUp) this.ctx.submit();
      this.reported = true;
      return;
    }
    this.reported = true;
    this.ctx.setStatus(state, ours(message), metadata);
  }
}

/** One line for a failure's reason. */
function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
