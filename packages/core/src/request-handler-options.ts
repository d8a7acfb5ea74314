/**
 * The configuration of a `RequestHandler` and the defaults it falls back on, kept apart
 * from the handler so the options can be read (and documented) without reading the
 * operations, and so the modules the handler delegates to share one set of defaults.
 */
import type { AgentCard } from '@a2a-polyglot/model';
import type { AgentExecutor } from './agent-executor.js';
import type { Authenticator, Principal } from './auth.js';
import type { EventLog } from './event-log.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { Logger } from './logger.js';
import type { CallObserver } from './observer.js';
import type { OperationInterceptor } from './operation-interceptor.js';
import type { PushConfigStore } from './push/push-config-store.js';
import type { PushSender } from './push/push-sender.js';
import type { WebhookEncodings } from './push/webhook-encoding.js';
import type { WebhookNetwork } from './push/webhook-transport.js';
import type { RateLimiter } from './rate-limit.js';
import type { QueueOptions } from './run-queue.js';
import type { TaskSignals } from './task-signals.js';
import type { TaskStore } from './task-store.js';

/** Everything a `RequestHandler` is built from. Only `card` and `executor` are required. */
export interface RequestHandlerOptions {
  /** The public agent card; its `capabilities` gate streaming, push and the extended card. */
  readonly card: AgentCard;
  readonly executor: AgentExecutor;
  /**
   * Where tasks live; the in-memory store when undefined. Without {@link cluster}, a running
   * task is saved once per burst of state changes, at the end of the turn, and readers of the
   * running task see the live copy: right for the in-memory store. Stores that outlive the
   * process belong with `cluster` set, where every event is saved before it is published.
   */
  readonly taskStore?: TaskStore;
  readonly eventLog?: EventLog;
  readonly pushConfigStore?: PushConfigStore;
  readonly pushSender?: PushSender;
  /**
   * Webhook bodies for configs registered through a v0.3 binding, for the default sender:
   * `{ '0.3': V03_WEBHOOK_ENCODING }` from `@a2a-polyglot/v03/json` (the core imports no
   * codec). Without it such a webhook gets v1.0 bodies, which a v0.3 receiver cannot parse.
   */
  readonly webhookEncodings?: WebhookEncodings;
  /**
   * How the default sender reaches webhooks. Default: the network offered by the entry point
   * that serves the handler (`RequestHandler.useWebhookNetwork`: the node:http entry points of
   * `@a2a-polyglot/server` offer `PINNED_WEBHOOK_NETWORK` of `@a2a-polyglot/http`, DNS-pinned),
   * else `fetch` with the URL policy only and no DNS pinning (`FETCH_WEBHOOK_NETWORK`).
   */
  readonly webhookNetwork?: WebhookNetwork;
  /** Authentication for every operation but card discovery. Off when undefined. */
  readonly authenticator?: Authenticator;
  /**
   * Rate limits for every request but card discovery: the client address is counted as the
   * request arrives, before the binding reads it and before authentication
   * (`RequestHandler.chargeArrival`), the authenticated identity after authentication. Off
   * when undefined.
   */
  readonly rateLimiter?: RateLimiter;
  /**
   * Refuse every call but card discovery with `Unavailable` and this reason, after
   * authentication and rate limits (so only an admitted caller reads the reason). Why: a host
   * that cannot build an agent (the executor's agent registry, when a row's module is refused
   * or fails to load) still serves its id, so clients learn why instead of a bare "not found".
   * Unset: the agent serves.
   */
  readonly unavailable?: string;
  /** Builds the extended card for an authenticated caller. */
  readonly extendedCard?: (principal: Principal | undefined) => AgentCard | Promise<AgentCard>;
  /** Where the core logs (pino-compatible; see Logger). Default: silent, as in every library package. */
  readonly logger?: Logger;
  /** Watches every operation, stream and task state change (metrics, traces). None by default. */
  readonly observer?: CallObserver;
  /**
   * Stand between the bindings and the operations ({@link OperationInterceptor}): answer some
   * calls, rewrite their requests, wrap their answers — first given runs outermost. None by default.
   */
  readonly interceptors?: readonly OperationInterceptor[];
  /**
   * Accept webhooks on loopback, private and other non-public addresses (tests, single-host
   * setups), at registration and, for the default sender, at delivery. Default false.
   */
  readonly allowPrivateWebhooks?: boolean;
  /**
   * Reject request members the request message does not have (InvalidParams / HTTP 400)
   * instead of ignoring them. Default false: a receiver SHOULD ignore unknown fields (spec
   * §6.1), so clients on a newer minor version keep working. JSON bindings read it through
   * `RequestHandler.strictRequests` when they decode; binary protobuf (gRPC) skips
   * unknown fields by design either way.
   */
  readonly strictRequests?: boolean;
  /**
   * Whether a task may outlive the call that started it. Default true, the A2A model: a
   * blocking send whose client disconnects leaves its task running, and `returnImmediately`
   * starts a background task. false, the run mode of OpenClaw.NET's A2A host (no background
   * execution): a send's task follows its caller. If the client goes away (the call's
   * `CallContext.signal` fires) before the task is terminal or interrupted, the task is
   * canceled through the CancelTask path (the agent's cancel hook runs, the task ends
   * CANCELED); this holds for SendMessage and for SendStreamingMessage, whose stream is its
   * caller. `returnImmediately` is refused with UnsupportedOperation. SubscribeToTask callers
   * are observers, not the caller: their leaving changes nothing.
   */
  readonly backgroundExecution?: boolean;
  /**
   * Let the agent receive parts of any media type. Default false: a message with a part whose
   * media type neither the card's `defaultInputModes` nor any skill's `inputModes` accept
   * (text parts are `text/plain`, data parts `application/json`, files their `mediaType`, else
   * `application/octet-stream`; `*\/*` and `type/*` modes are wildcards) is refused with
   * ContentTypeNotSupported before the agent runs. true is for agents that inspect what they
   * get themselves; an agent that really takes anything can say so in its card with `*\/*`.
   */
  readonly acceptAnyInputMode?: boolean;
  /**
   * The most runs this handler executes at once (new tasks and follow-ups alike): a send that
   * would start one more is refused with ResourceExhausted and a `retryAfterSeconds` hint
   * (HTTP 429 + `Retry-After`, gRPC RESOURCE_EXHAUSTED) before anything is stored or executed.
   * A slot is held from the send's admission until the agent's `execute` returns. Counted in
   * this process: with several instances, each admits up to the cap. Unset: no cap.
   */
  readonly maxConcurrentTasks?: number;
  /**
   * Like {@link maxConcurrentTasks}, per identity (the caller's principal id after aliases):
   * one caller cannot take every slot. Anonymous callers (authentication off) are counted
   * only by `maxConcurrentTasks`. Unset: no cap.
   */
  readonly maxConcurrentTasksPerIdentity?: number;
  /** How long the agent's cancel hook may take before the task is marked CANCELED anyway. Default 5 s. */
  readonly cancelHookTimeoutMs?: number;
  /**
   * The most bytes of encoded task JSON one ListTasks page carries, on top of the item cap
   * (`pageSize`): a page of big tasks ends early with a `nextPageToken` that continues right
   * after its last task, so one call cannot answer with hundreds of megabytes. A page always
   * holds at least one task, however large. Default {@link DEFAULT_LIST_TASKS_MAX_BYTES} (4 MiB).
   */
  readonly listTasksMaxBytes?: number;
  /**
   * Serve the draft A2A 1.1 (spec branch `dev-1.1`), experimental: calls naming
   * `A2A-Version: 1.1` are accepted (otherwise refused with VersionNotSupported) and answered
   * with the task `generation` on every task and task event, GetTask long-polls on
   * `currentGeneration`, and follow-ups honour `ifGenerationMatch`. Calls naming 1.0 or 0.3
   * are answered exactly as without it. Default false. The card lists 1.1 interfaces only
   * when its listener is told too (the server's `experimental11`).
   */
  readonly experimental11?: boolean;
  /**
   * The longest a 1.1 GetTask long poll (`currentGeneration`) is held: past it, the task is
   * answered as it is (the spec lets the server return early). Default
   * {@link DEFAULT_LONG_POLL_MAX_MS} (30 s). The client's own deadline ends it earlier.
   */
  readonly longPollMaxMs?: number;
  /**
   * How long a send is remembered by (principal, tenant, messageId), in ms: a send seen within
   * it answers the first one's task or reply instead of running again, and the same
   * `messageId` with a different body is refused with InvalidParams (see `IdempotentSends`).
   * Default 24 h; 0 turns it off.
   */
  readonly idempotencyWindowMs?: number;
  /**
   * Where sends are remembered: the durable stores' (SQLite, PostgreSQL, DynamoDB) so the rule
   * holds across instances. Default: a bounded in-memory store (100k keys / 32 MiB).
   */
  readonly idempotencyStore?: IdempotencyStore;
  /**
   * Durable mode, for stores that outlive the process or are shared by several instances
   * (SQLite, PostgreSQL). Off when undefined: the in-process fast path.
   */
  readonly cluster?: ClusterOptions;
  /**
   * A work queue shared by the instances (needs {@link cluster}): sends received here are stored
   * and enqueued, and a worker on any instance claims and runs them; a run whose worker stopped
   * is resumed elsewhere when the agent is retryable. Off when undefined: a task runs on the
   * instance that received it.
   */
  readonly queue?: QueueOptions;
}

/**
 * How an instance takes part in durable, multi-instance operation. With these set, every
 * task event is saved before it is logged (so every instance reads the same task), the
 * instance holds a lease on each task it executes, renews it while the task runs, and sweeps
 * tasks whose instance died; a cancel served elsewhere reaches the run through `signals`.
 */
export interface ClusterOptions {
  /** This instance's id (lease owner). Keep it stable across restarts to recover its tasks at once. */
  readonly instanceId: string;
  /** How long a lease lasts without renewal; renewed every third of it. Default 30 s. */
  readonly leaseMs?: number;
  /** How often to look for tasks whose lease ran out. Default 10 s. */
  readonly sweepIntervalMs?: number;
  /** How a cancel served by another instance reaches the run. Default: none (one instance). */
  readonly signals?: TaskSignals;
}

/** Default of {@link RequestHandlerOptions.cancelHookTimeoutMs}. */
export const DEFAULT_CANCEL_HOOK_TIMEOUT_MS = 5000;

/** Default of {@link RequestHandlerOptions.longPollMaxMs}: below the 60 s idle timeout common proxies apply. */
export const DEFAULT_LONG_POLL_MAX_MS = 30_000;

/** Default of {@link ClusterOptions.leaseMs}. */
export const DEFAULT_LEASE_MS = 30_000;

/** Default of {@link ClusterOptions.sweepIntervalMs}. */
export const DEFAULT_SWEEP_INTERVAL_MS = 10_000;

/** Page size of ListTasks and ListTaskPushNotificationConfigs when the caller sets none. */
export const DEFAULT_PAGE_SIZE = 50;

/** The largest page either list operation returns, so one call cannot load a whole store. */
export const MAX_PAGE_SIZE = 100;

/**
 * Default of {@link RequestHandlerOptions.listTasksMaxBytes}: 4 MiB of encoded task JSON per
 * ListTasks page (a full page of 100 tasks with artifacts once answered 138 MB).
 */
export const DEFAULT_LIST_TASKS_MAX_BYTES = 4 * 1024 * 1024;
