/** The `auth` section: API keys and/or bearer JWTs; and the `push` section. */
import { z } from 'zod';
import { absoluteUrl, bool, intIn, nonEmpty, positiveBytes, section } from './values.js';

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
  apiKeys: apiKeysSchema.optional().describe('API keys mapped to the name each authenticates as, principal id key:<name> (A2A_API_KEYS).'),
  header: nonEmpty.optional().describe('Header carrying a raw API key (default x-api-key).'),
  jwksUrl: absoluteUrl.optional().describe("The identity provider's JWKS URL (with jwtIssuer and jwtAudience)."),
  jwtIssuer: nonEmpty.optional(),
  jwtAudience: nonEmpty.optional(),
  jwtClockToleranceSec: intIn(0, 3600).optional(),
  jwtRequireExp: bool.optional().describe('Refuse JWTs without exp (they would never expire). Default true.'),
  jwtMaxLifetimeSec: intIn(1, 366 * 24 * 60 * 60)
    .optional()
    .describe('Longest JWT lifetime accepted: exp at most this long after iat (or after now). Default 86400.'),
  jwksTimeoutMs: intIn(1, 60_000).optional().describe('Deadline of a whole JWKS fetch, body included. Default 5000.'),
  jwksMaxBytes: positiveBytes.optional().describe('Largest JWKS body read. Default 1 MiB.'),
  openIdConnectUrl: absoluteUrl.optional(),
  principalAliases: principalAliasesSchema
    .optional()
    .describe('Principal ids (jwt:<iss>#<sub>, key:<name>, cert:<issuer>#<subject>) mapped to a shared identity that owns their tasks together.'),
});

/** `push`: webhook delivery rules, and the key that encrypts webhook secrets at rest. */
export const pushSchema = section({
  allowPrivateNetworks: bool.optional().describe('Deliver push notifications to private and loopback addresses (tests, in-cluster receivers).'),
  secretKey: nonEmpty
    .optional()
    .describe(
      'Encrypts push-config tokens and credentials at rest in the SQLite, PostgreSQL and DynamoDB stores: 32 bytes, base64 or hex (A2A_PUSH_SECRET_KEY).',
    ),
});
