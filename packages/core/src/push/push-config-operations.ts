import {
  clipInput,
  type DeleteTaskPushNotificationConfigRequest,
  type GetTaskPushNotificationConfigRequest,
  type ListTaskPushNotificationConfigsRequest,
  type ListTaskPushNotificationConfigsResponse,
  type TaskPushNotificationConfig,
} from '@a2a-polyglot/model';
import { A2AError, errors } from '../a2a-error.js';
import { A2AErrorCode } from '../error-code.js';
import type { ProtocolVersion } from '../protocol-version.js';
import { requireId, type Caller } from '../request-handler-helpers.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../request-handler-options.js';
import type { TaskQueries } from '../task-queries.js';
import { newId } from '../util.js';
import { redactPushConfig, refuseRedactedSecrets, wirePushConfig } from './push-config-redaction.js';
import type { PushConfigStore } from './push-config-store.js';
import type { PushDispatcher } from './push-dispatcher.js';
import { checkWebhookUrl } from './webhook-url.js';

/**
 * The four push-notification-config operations (create, get, list, delete) and the checks a
 * webhook registration passes before it is saved, also for the config inlined in SendMessage.
 * The `RequestHandler` runs each operation's preamble (capability, authentication,
 * tenant) and hands over the caller; everything after that is here.
 *
 * Reads never answer secrets (Get and List redact them, see `redactPushConfig`), and a
 * registration remembers the generation of the call that made it, so its webhook is written
 * in that generation (`StoredPushConfig.protocolVersion`).
 * @internal
 */
export class PushConfigOperations {
  constructor(
    private readonly configs: PushConfigStore,
    private readonly tasks: TaskQueries,
    private readonly allowPrivateWebhooks: boolean,
    /** Fenced before each save, so the new webhook gets no event older than itself. */
    private readonly dispatcher: Pick<PushDispatcher, 'registered'>,
  ) {}

  /** `generation`: the call's wire version (a v0.3 registration gets v0.3 webhooks). */
  async create(caller: Caller, request: TaskPushNotificationConfig, generation: ProtocolVersion): Promise<TaskPushNotificationConfig> {
    requireId(request.taskId, 'taskId');
    await this.tasks.loadStoredOrLive(caller, request.taskId);
    return this.save(caller.tenant, request, generation);
  }

  async get(caller: Caller, request: GetTaskPushNotificationConfigRequest): Promise<TaskPushNotificationConfig> {
    requireId(request.taskId, 'taskId');
    requireId(request.id, 'id');
    await this.tasks.loadStoredOrLive(caller, request.taskId);
    const config = await this.configs.get(caller.tenant, request.taskId, request.id);
    if (!config)
      throw new A2AError(A2AErrorCode.TaskNotFound, `Push notification config ${clipInput(request.id)} not found for task ${request.taskId}`, {
        metadata: { taskId: request.taskId, configId: clipInput(request.id) },
      });
    return redactPushConfig(config);
  }

  /**
   * One page of a task's configs, secrets redacted. A v0.3 call (`generation` 0.3) gets every
   * config in one answer: v0.3 JSON-RPC has no paging, and the v0.3 gRPC and REST page fields
   * are ignored as v0.3 servers (a2a-js 0.3.x) ignore them, answering no next page token.
   */
  async list(caller: Caller, request: ListTaskPushNotificationConfigsRequest, generation: ProtocolVersion): Promise<ListTaskPushNotificationConfigsResponse> {
    requireId(request.taskId, 'taskId');
    await this.tasks.loadStoredOrLive(caller, request.taskId);
    const all = await this.configs.list(caller.tenant, request.taskId);
    if (generation === '0.3') return { configs: all.map(redactPushConfig), nextPageToken: '' };
    const pageSize = request.pageSize > 0 ? Math.min(request.pageSize, MAX_PAGE_SIZE) : DEFAULT_PAGE_SIZE;
    const offset = request.pageToken ? Number.parseInt(request.pageToken, 10) : 0;
    if (!Number.isInteger(offset) || offset < 0 || String(offset) !== (request.pageToken || '0')) {
      throw errors.invalidParams('Invalid pageToken', [{ field: 'pageToken', description: 'not a token this server issued' }]);
    }
    const configs = all.slice(offset, offset + pageSize).map(redactPushConfig);
    return { configs, nextPageToken: offset + pageSize < all.length ? String(offset + pageSize) : '' };
  }

  /** Idempotent: deleting a missing config succeeds (spec §4). */
  async delete(caller: Caller, request: DeleteTaskPushNotificationConfigRequest): Promise<void> {
    requireId(request.taskId, 'taskId');
    requireId(request.id, 'id');
    await this.tasks.loadStoredOrLive(caller, request.taskId);
    await this.configs.delete(caller.tenant, request.taskId, request.id);
  }

  /**
   * Checks a registration (url, webhook address, authentication scheme, no redaction
   * placeholder for a secret), gives it an id if it has none, and saves it with the
   * generation it was registered in. Answers the config as saved (its caller's own secrets).
   */
  async save(tenant: string, config: TaskPushNotificationConfig, generation: ProtocolVersion): Promise<TaskPushNotificationConfig> {
    if (!config.url) throw errors.invalidParams('url is required', [{ field: 'url', description: 'required' }]);
    checkWebhookUrl(config.url, this.allowPrivateWebhooks);
    if (config.authentication && !config.authentication.scheme) {
      throw errors.invalidParams('authentication.scheme is required', [{ field: 'authentication.scheme', description: 'required' }]);
    }
    refuseRedactedSecrets(config);
    const saved = wirePushConfig({ ...config, id: config.id || newId(), tenant });
    // Fenced before the put: a lookup that finds the config once it is saved skips events
    // dispatched before this line.
    this.dispatcher.registered(tenant, saved.taskId, saved.id);
    await this.configs.put(tenant, { ...saved, protocolVersion: generation });
    return saved;
  }

  /** Drops every config of a task (an inline config whose task turned out to be a plain message). */
  deleteAll(tenant: string, taskId: string): Promise<void> {
    return this.configs.deleteAll(tenant, taskId);
  }
}
