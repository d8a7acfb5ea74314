import type { TaskPushNotificationConfig } from '@a2a-polyglot/model';
import { errors } from '../a2a-error.js';
import type { StoredPushConfig } from './push-config-store.js';

/**
 * What Get and List answer in place of a config's `token` and `authentication.credentials`
 * when one is set (unset stays unset): eight asterisks. A config's secrets are write-only —
 * whoever may read a task's configs must not learn the webhook's credentials (the push-config
 * work planned for the next A2A version, spec issues 1988 / 1681, makes this a MUST) — while
 * the reader can still tell that a secret is set. The placeholder is refused as a secret on
 * registration, so a config read back and registered again cannot silently replace the real
 * secret with asterisks.
 */
export const REDACTED_SECRET = '********';

/**
 * The config as Get and List answer it on every binding and generation: its wire members only
 * (never the store-side {@link StoredPushConfig.protocolVersion}), secrets as
 * {@link REDACTED_SECRET}, the authentication scheme as registered.
 */
export function redactPushConfig(config: StoredPushConfig): TaskPushNotificationConfig {
  const auth = config.authentication;
  return {
    ...wirePushConfig(config),
    token: config.token ? REDACTED_SECRET : '',
    authentication: auth && { scheme: auth.scheme, credentials: auth.credentials ? REDACTED_SECRET : '' },
  };
}

/** The wire members of a stored config (what Create answers its own caller: the secrets it just sent). */
export function wirePushConfig(config: StoredPushConfig): TaskPushNotificationConfig {
  return { tenant: config.tenant, id: config.id, taskId: config.taskId, url: config.url, token: config.token, authentication: config.authentication };
}

/** Refuses the redaction placeholder as a secret (see {@link REDACTED_SECRET}). */
export function refuseRedactedSecrets(config: TaskPushNotificationConfig): void {
  for (const [field, value] of [
    ['token', config.token],
    ['authentication.credentials', config.authentication?.credentials],
  ] as const) {
    if (value === REDACTED_SECRET) {
      throw errors.invalidParams(`${field} is the redaction placeholder a read answers, not a secret: send the real one`, [
        { field, description: 'is the redaction placeholder' },
      ]);
    }
  }
}
