/**
 * Whether a parsed JSON value is an object whose members can be read by name. Upstream
 * answers are untrusted JSON: bridges read members through this check, never through `any`.
 * Arrays pass too (their named members are simply absent), as with a `typeof` check.
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
