import { streamEventToJson, type WebhookEncoding } from '@a2a-polyglot/core';
import { streamEventToV03 } from './task.js';

/**
 * Webhook bodies for configs registered through a v0.3 binding: each event as the bare v0.3
 * object a v0.3 stream carries (the Task, or a `status-update` with `final`, or an
 * `artifact-update`, all with `kind` and kebab-case states; the one encoder the v0.3 streams
 * use), sent as `application/json`, the content type the official v0.3 SDK posts. Give it to
 * the handler as `webhookEncodings: { '0.3': V03_WEBHOOK_ENCODING }`.
 */
export const V03_WEBHOOK_ENCODING: WebhookEncoding = {
  contentType: 'application/json',
  body: (event) => JSON.stringify(streamEventToV03(streamEventToJson(event))),
};
