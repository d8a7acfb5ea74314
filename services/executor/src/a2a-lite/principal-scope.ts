import { createHash } from 'node:crypto';

/**
 * The scope of one caller in the A2A-Lite caches: the SHA-256 (hex) of its principal id,
 * with anonymous callers (no authenticator) sharing one scope of their own. A hash because the
 * scope also names the caller's folder in the known-agents directory: principal ids are opaque
 * strings (`key:alice`, `jwt:<iss>#<sub>`, certificate subjects) that may hold `/`, `..` or be
 * longer than a file name may be, and a hash is always 64 safe characters. JSON of the id keeps
 * the anonymous caller apart from a principal whose id happens to be any given string.
 */
export function principalScope(principal: string | undefined): string {
  return createHash('sha256')
    .update(JSON.stringify(principal ?? null))
    .digest('hex');
}

/** True for a string {@link principalScope} can return (a folder of the known-agents directory). */
export function isPrincipalScope(name: string): boolean {
  return /^[0-9a-f]{64}$/.test(name);
}
