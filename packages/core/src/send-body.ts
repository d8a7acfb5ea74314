import { Message, type SendMessageRequest, TaskPushNotificationConfig } from '@a2a-polyglot/model';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import canonicalize from 'canonicalize';

/**
 * The hash that tells a retry of a send (same body) from a different send reusing its
 * `messageId`: SHA-256, hex, over the RFC 8785 canonical JSON (JCS, the `canonicalize`
 * package) of what the send asks for: the message without its `messageId`, the request
 * metadata, the accepted output modes and the inline push config. Left out on purpose: the
 * tenant and the principal (they are the key already) and the options that only shape the
 * answer (`historyLength`, `returnImmediately`), which a client may change between retries.
 *
 * Canonical JSON because ProtoJSON member order follows the client's JSON for `Struct`
 * metadata, and v0.3 and v1.0 bindings decode to the same proto: the same send hashes the
 * same on every binding and version. The digest is `@noble/hashes` (audited, no Node APIs, so
 * the core stays runnable in browsers): synchronous, unlike Web Crypto's `subtle.digest`, whose
 * trip through the thread pool would delay every send's start by more than the hash costs.
 */
export function sendBodyHash(request: SendMessageRequest): string {
  const message = request.message ? Message.toJSON({ ...request.message, messageId: '' }) : null;
  const config = request.configuration;
  const body = {
    message,
    metadata: request.metadata ?? null,
    acceptedOutputModes: config?.acceptedOutputModes ?? [],
    push: config?.taskPushNotificationConfig ? TaskPushNotificationConfig.toJSON(config.taskPushNotificationConfig) : null,
  };
  const text = canonicalize(body) ?? '';
  return bytesToHex(sha256(utf8ToBytes(text)));
}
