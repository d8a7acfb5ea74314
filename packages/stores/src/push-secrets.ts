import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { TaskPushNotificationConfig } from '@a2a-polyglot/model';

/**
 * Encryption at rest of the two secrets of a push config, `token` and
 * `authentication.credentials`: a database dump, a backup or a read replica then holds no
 * webhook credential anyone could replay. AES-256-GCM from node:crypto (no dependency; the
 * primitive is the standard one, only the framing below is ours), a fresh 96-bit IV per value,
 * and the config's identity (tenant, task, config id, field) as additional authenticated data,
 * so a sealed value copied into another row or field does not open.
 *
 * A sealed value reads `a2a-sealed:v1:<base64url(iv | tag | ciphertext)>`. Values without that
 * prefix are plaintext written before a key was configured: they stay readable, and
 * {@link PushSecrets.needsSealing} finds them for the stores' `sealPlaintextSecrets` migration.
 * Everything else of the config (url, scheme, ids) stays in the clear, so rows remain readable
 * with plain SQL.
 */
export class PushSecrets {
  private constructor(private readonly key: Buffer | undefined) {}

  /** No key: secrets are stored as given (and reading a sealed one is an error naming the setting). */
  static readonly NONE = new PushSecrets(undefined);

  /**
   * From `push.secretKey`: 32 bytes as base64 (44 characters, `openssl rand -base64 32`) or
   * hex (64 characters). Undefined or empty: {@link NONE}.
   * @throws Error for any other value (the message never shows the value).
   */
  static fromKey(secretKey: string | undefined): PushSecrets {
    if (!secretKey) return PushSecrets.NONE;
    return new PushSecrets(parseKey(secretKey));
  }

  /** True when values are sealed on write. */
  get enabled(): boolean {
    return this.key !== undefined;
  }

  /** The config with its secrets sealed (a copy; the config itself is not changed). Identity without a key. */
  seal<C extends TaskPushNotificationConfig>(tenant: string, config: C): C {
    const key = this.key;
    if (!key) return config;
    return mapSecrets(config, (value, field) => (value === '' || isSealed(value) ? value : sealValue(key, value, aad(tenant, config, field))));
  }

  /** The config with its secrets opened. Plaintext values pass as they are. */
  open<C extends TaskPushNotificationConfig>(tenant: string, config: C): C {
    return mapSecrets(config, (value, field) => {
      if (!isSealed(value)) return value;
      if (!this.key) throw new Error('A push config secret in the store is encrypted: configure push.secretKey (A2A_PUSH_SECRET_KEY) to read it');
      return openValue(this.key, value, aad(tenant, config, field));
    });
  }

  /** True when a key is set and the config still holds a plaintext secret. */
  needsSealing(config: TaskPushNotificationConfig): boolean {
    if (!this.key) return false;
    return [config.token, config.authentication?.credentials ?? ''].some((value) => value !== '' && !isSealed(value));
  }
}

/** The options every durable push config store takes. */
export interface PushConfigStoreOptions {
  /** Encrypts `token` and `authentication.credentials` at rest (see {@link PushSecrets}). */
  readonly secrets?: PushSecrets;
}

const PREFIX = 'a2a-sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

function isSealed(value: string): boolean {
  return value.startsWith(PREFIX);
}

function parseKey(text: string): Buffer {
  const trimmed = text.trim();
  const key = /^[0-9a-f]{64}$/i.test(trimmed) ? Buffer.from(trimmed, 'hex') : /^[A-Za-z0-9+/]{43}=$/.test(trimmed) ? Buffer.from(trimmed, 'base64') : undefined;
  if (key?.length !== 32)
    throw new Error('push.secretKey (A2A_PUSH_SECRET_KEY) must be 32 bytes as base64 (44 characters, e.g. `openssl rand -base64 32`) or hex (64 characters)');
  return key;
}

type SecretField = 'token' | 'authentication.credentials';

function aad(tenant: string, config: TaskPushNotificationConfig, field: SecretField): Buffer {
  return Buffer.from([tenant, config.taskId, config.id, field].join('\u0000'), 'utf8');
}

function mapSecrets<C extends TaskPushNotificationConfig>(config: C, map: (value: string, field: SecretField) => string): C {
  const auth = config.authentication;
  return {
    ...config,
    token: map(config.token, 'token'),
    authentication: auth && { ...auth, credentials: auth.credentials === '' ? '' : map(auth.credentials, 'authentication.credentials') },
  };
}

function sealValue(key: Buffer, plain: string, additional: Buffer): string {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(additional);
  const encrypted = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return PREFIX + Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64url');
}

function openValue(key: Buffer, sealed: string, additional: Buffer): string {
  const raw = Buffer.from(sealed.slice(PREFIX.length), 'base64url');
  try {
    if (raw.length < IV_BYTES + TAG_BYTES) throw new Error('too short');
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, IV_BYTES));
    decipher.setAAD(additional);
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
  } catch {
    throw new Error('A push config secret in the store does not open with push.secretKey: a different key sealed it, or the row was altered');
  }
}
