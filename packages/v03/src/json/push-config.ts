import { isJsonObject, v03Violation, withoutKeys, type JsonObject } from './json-object.js';

/**
 * Push-notification configs: v0.3 `PushNotificationConfig {id?, url, token?, authentication?
 * {schemes[], credentials?}}` wrapped as `{taskId, pushNotificationConfig}` (spec §12.2) ⇄ the
 * one v1.0 `TaskPushNotificationConfig {taskId, id, url, token, authentication{scheme}}`.
 */

/**
 * A v0.3 PushNotificationConfig as the members of a v1.0 TaskPushNotificationConfig. v1.0 has
 * one scheme where v0.3 had a list: the first one is kept (as the a2a-js compat layer does).
 */
export function pushConfigFromV03(config: unknown, path: string): unknown {
  if (!isJsonObject(config)) return config;
  const auth = config.authentication;
  if (auth === undefined || !isJsonObject(auth)) return config;
  const schemes = auth.schemes;
  if (!Array.isArray(schemes) || schemes.length === 0 || typeof schemes[0] !== 'string') {
    throw v03Violation(`${path}.authentication.schemes`, 'must list at least one authentication scheme');
  }
  return withoutKeys(config, [], { authentication: withoutKeys(auth, ['schemes'], { scheme: schemes[0] }) });
}

/** The v0.3 PushNotificationConfig of a v1.0 TaskPushNotificationConfig (task id and tenant left out). */
export function pushConfigToV03(config: unknown): JsonObject {
  const c = isJsonObject(config) ? config : {};
  const auth = isJsonObject(c.authentication) ? c.authentication : undefined;
  return withoutKeys(c, ['taskId', 'tenant', 'authentication'], {
    id: c.id ?? '',
    authentication: auth && withoutKeys(auth, ['scheme'], { schemes: auth.scheme === undefined ? [] : [auth.scheme] }),
  });
}

/** A v1.0 TaskPushNotificationConfig as the v0.3 `TaskPushNotificationConfig {taskId, pushNotificationConfig}`. */
export function taskPushConfigToV03(config: unknown): JsonObject {
  const c = isJsonObject(config) ? config : {};
  return { taskId: c.taskId ?? '', pushNotificationConfig: pushConfigToV03(c) };
}

/** A v0.3 `TaskPushNotificationConfig` (a result a v0.3 server sent) as a v1.0 TaskPushNotificationConfig. */
export function taskPushConfigFromV03(config: unknown, path: string): JsonObject {
  const c = isJsonObject(config) ? config : {};
  const inner = pushConfigFromV03(c.pushNotificationConfig, `${path}.pushNotificationConfig`);
  return withoutKeys(isJsonObject(inner) ? inner : {}, [], { taskId: c.taskId });
}
