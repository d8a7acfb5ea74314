import type { Logger } from '@a2a-polyglot/core';
import type { PushSecrets } from '@a2a-polyglot/stores';
import type { ExecutorConfig } from './config.js';

/**
 * The cipher of `push.secretKey` for the durable push config stores (no key: secrets stored
 * as given). Loaded only when a durable store is opened, like the stores themselves.
 * @throws Error naming `push.secretKey` when the key is not 32 bytes of base64 or hex.
 */
export function pushSecretsFor(config: Pick<ExecutorConfig, 'push'>): PushSecrets {
  const { PushSecrets } = require('@a2a-polyglot/stores') as typeof import('@a2a-polyglot/stores');
  return PushSecrets.fromKey(config.push.secretKey);
}

/**
 * The startup migration of secrets written before the key was set: the store seals every
 * plaintext token and credential it holds (none without a key), and the count is logged.
 */
export async function sealStoredPushSecrets(store: { sealPlaintextSecrets(): Promise<number> }, logger: Logger): Promise<void> {
  const sealed = await store.sealPlaintextSecrets();
  if (sealed > 0) logger.info({ sealed }, 'Encrypted the push config secrets stored before push.secretKey was set');
}
