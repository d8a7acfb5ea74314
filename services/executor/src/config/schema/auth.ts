/** The `auth` section: API keys and/or bearer JWTs; and the `push` section. */
import { z } from 'zod';
import { JWT_DEFAULTS } from '@a2a-polyglot/auth-jwt';
import { settingMeta } from './setting.js';
import { absoluteUrl, bool, intIn, nonEmpty, positiveBytes, section, strings } from './values.js';

/**
 * API keys mapped to principal ids. The error formatter never shows its value nor the key
 * an issue is about (`auth.apiKeys` is a secret path).
 */
export const apiKeysSchema = z.record(
  z.string().refine((key) => key.trim() !== '', { error: 'a map of non-empty API keys to principal ids' }),
  z
    .string({ error: 'a map of API keys to non-empty principal ids' })
    .refine((principal) => principal.trim() !== '', { error: 'a map of API keys to non-empty principal ids' }),
  { error: 'an object mapping API keys to principal ids' },
);

const ALIASES = 'a map of principal ids to non-empty shared ids';

/**
 * Principal ids mapped to the shared identity each one is (README "Principal names"); that
 * each key is a principal id (has a scheme prefix) is checked after merging (`validate.ts`).
 */
export const principalAliasesSchema = z.record(
  z.string().refine((id) => id.trim() !== '', { error: ALIASES }),
  z.string({ error: ALIASES }).refine((id) => id.trim() !== '', { error: ALIASES }),
  { error: ALIASES },
);

/** `auth`: who may call. Neither API keys nor JWTs configured: authentication off. */
export const authSchema = section({
  apiKeys: apiKeysSchema
    .default(() => ({}))
    .describe('API keys mapped to the name each authenticates as, principal id key:<name> (A2A_API_KEYS: "key1=name1,key2=name2").')
    .register(settingMeta, { env: 'A2A_API_KEYS' }),
  header: nonEmpty.default('x-api-key').describe('Header carrying a raw API key.').register(settingMeta, { env: 'A2A_API_KEY_HEADER' }),
  jwksUrl: absoluteUrl.optional().describe("The identity provider's JWKS URL (with jwtIssuer and jwtAudience).").register(settingMeta, { env: 'A2A_JWKS_URL' }),
  jwtIssuer: nonEmpty.optional().describe('The iss every JWT must carry.').register(settingMeta, { env: 'A2A_JWT_ISSUER' }),
  jwtAudience: nonEmpty.optional().describe('The aud every JWT must carry.').register(settingMeta, { env: 'A2A_JWT_AUDIENCE' }),
  jwtClockToleranceSec: intIn(0, 3600)
    .optional()
    .describe('Clock skew allowed on exp and nbf, seconds.')
    .register(settingMeta, { env: 'A2A_JWT_CLOCK_TOLERANCE_SEC' }),
  jwtRequiredScopes: strings
    .optional()
    .describe('Scopes every JWT must carry (space-separated scope claim, or scp array); a token without one is refused with PERMISSION_DENIED.')
    .register(settingMeta, { env: 'A2A_JWT_REQUIRED_SCOPES' }),
  jwtRequireExp: bool.default(true).describe('Refuse JWTs without exp (they would never expire).').register(settingMeta, { env: 'A2A_JWT_REQUIRE_EXP' }),
  jwtMaxLifetimeSec: intIn(1, 366 * 24 * 60 * 60)
    .default(JWT_DEFAULTS.maxLifetimeSec)
    .describe('Longest JWT lifetime accepted: exp at most this long after iat (or after now).')
    .register(settingMeta, { env: 'A2A_JWT_MAX_LIFETIME_SEC' }),
  jwksTimeoutMs: intIn(1, 60_000)
    .default(JWT_DEFAULTS.jwksTimeoutMs)
    .describe('Deadline of a whole JWKS fetch, body included.')
    .register(settingMeta, { env: 'A2A_JWKS_TIMEOUT_MS' }),
  jwksMaxBytes: positiveBytes.default(JWT_DEFAULTS.jwksMaxBytes).describe('Largest JWKS body read.').register(settingMeta, { env: 'A2A_JWKS_MAX_BYTES' }),
  openIdConnectUrl: absoluteUrl
    .optional()
    .describe("The OpenID Connect discovery URL the card's security scheme names.")
    .register(settingMeta, { env: 'A2A_OIDC_URL' }),
  principalAliases: principalAliasesSchema
    .default(() => ({}))
    .describe('Principal ids (jwt:<iss>#<sub>, key:<name>, cert:<issuer>#<subject>) mapped to a shared identity that owns their tasks together.'),
});

/** `push`: webhook delivery rules, and the key that encrypts webhook secrets at rest. */
export const pushSchema = section({
  allowPrivateNetworks: bool
    .default(false)
    .describe('Deliver push notifications to private and loopback addresses (tests, in-cluster receivers).')
    .register(settingMeta, { env: 'A2A_PUSH_ALLOW_PRIVATE_NETWORKS' }),
  // No flag: a key on the command line would show in `ps` and shell history.
  secretKey: nonEmpty
    .optional()
    .describe(
      'Encrypts push-config tokens and credentials at rest in the SQLite, PostgreSQL and DynamoDB stores: 32 bytes, base64 or hex. Unset: stored as given.',
    )
    .register(settingMeta, { env: 'A2A_PUSH_SECRET_KEY' }),
});
