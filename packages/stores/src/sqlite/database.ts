import { A2AError } from '@a2a-polyglot/core';
import Database from 'better-sqlite3';
import { unavailable } from '../errors.js';

/** A better-sqlite3 database handle. */
export type SqliteDatabase = Database.Database;

/**
 * Opens (creating if needed) the SQLite file for the embedded durable store, tuned for a
 * service: WAL (readers never block the writer), `synchronous = NORMAL` (a commit survives a
 * crash or `kill -9` of the process; only a power loss can drop the last commits), and a busy
 * timeout so a second process on the same file waits for the lock instead of failing at once.
 */
export function openSqlite(path: string): SqliteDatabase {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  return db;
}

const SERVICE = 'task store (SQLite)';

/**
 * Maps a SQLite failure: a locked, full, read-only or unreadable database is Unavailable;
 * anything else is a bug here and becomes Internal.
 */
export function sqliteError(error: unknown): A2AError {
  if (error instanceof A2AError) return error;
  const code = (error as { code?: unknown })?.code;
  if (typeof code === 'string' && /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|READONLY|NOMEM|PROTOCOL|CORRUPT|NOTADB)/.test(code))
    return unavailable(SERVICE, error);
  if ((error as Error)?.message === 'The database connection is not open') return unavailable(SERVICE, error);
  return A2AError.from(error);
}

/** Runs a synchronous statement block, mapping its failure. */
export function guarded<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    throw sqliteError(error);
  }
}
