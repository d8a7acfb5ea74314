import { A2AError } from '@a2a-polyglot/core';
import { unavailable } from '../errors.js';

const SERVICE = 'task store (PostgreSQL)';

/**
 * Maps a `pg` failure: anything that means "cannot talk to the server" (no SQLSTATE, or the
 * connection, resource and shutdown classes 08, 53, 57) becomes Unavailable; an error the
 * server reports about a statement is a bug here and becomes Internal.
 */
export function pgError(error: unknown): A2AError {
  if (error instanceof A2AError) return error;
  const code = (error as { code?: unknown })?.code;
  const sqlState = typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
  if (!sqlState || /^(08|53|57)/.test(sqlState)) return unavailable(SERVICE, error);
  return A2AError.from(error);
}
