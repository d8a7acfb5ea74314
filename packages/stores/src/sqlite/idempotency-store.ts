import type { IdempotencyStore, SendClaim, SendKey, SendOutcome } from '@a2a-polyglot/core';
import { decodeSendOutcome, encodeSendOutcome } from '../codec.js';
import { purgeDue } from '../send-purge.js';
import { guarded, type SqliteDatabase } from './database.js';

interface SendRow {
  readonly body_hash: string;
  readonly task_id: string | null;
  readonly reply: string | null;
}

/**
 * The sends seen within the idempotency window, in the SQLite file (table `a2a_sends`, primary
 * key (principal, tenant, message_id)): a claim is one upsert that takes the key only when it
 * is new or expired, so processes sharing the file cannot both own a send. Expired rows are
 * deleted now and then by the claims themselves (see `purgeDue`).
 */
export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly take;
  private readonly read;
  private readonly write;
  private readonly drop;
  private readonly purge;
  private lastPurge = 0;

  constructor(db: SqliteDatabase) {
    this.take = db.prepare(
      `INSERT INTO a2a_sends (principal, tenant, message_id, body_hash, expires_at) VALUES (@principal, @tenant, @messageId, @fingerprint, @expiresAt)
       ON CONFLICT (principal, tenant, message_id) DO UPDATE SET body_hash = excluded.body_hash, task_id = NULL, reply = NULL, expires_at = excluded.expires_at
       WHERE a2a_sends.expires_at <= @now
       RETURNING 1 AS taken`,
    );
    this.read = db.prepare('SELECT body_hash, task_id, reply FROM a2a_sends WHERE principal = ? AND tenant = ? AND message_id = ?');
    this.write = db.prepare(
      'UPDATE a2a_sends SET task_id = @taskId, reply = @reply, expires_at = @expiresAt WHERE principal = @principal AND tenant = @tenant AND message_id = @messageId AND body_hash = @fingerprint',
    );
    this.drop = db.prepare(
      'DELETE FROM a2a_sends WHERE principal = ? AND tenant = ? AND message_id = ? AND body_hash = ? AND task_id IS NULL AND reply IS NULL',
    );
    this.purge = db.prepare('DELETE FROM a2a_sends WHERE expires_at <= ?');
  }

  async claim(key: SendKey, fingerprint: string, now: number, expiresAt: number): Promise<SendClaim> {
    if (purgeDue(this.lastPurge, now)) {
      this.lastPurge = now;
      guarded(() => this.purge.run(now));
    }
    for (;;) {
      if (guarded(() => this.take.get({ ...key, fingerprint, expiresAt, now }))) return { kind: 'new' };
      const row = guarded(() => this.read.get(key.principal, key.tenant, key.messageId) as SendRow | undefined);
      // Gone in between (purged): claim again.
      if (row) return { kind: 'existing', fingerprint: row.body_hash, outcome: decodeSendOutcome(row.task_id, row.reply) };
    }
  }

  async record(key: SendKey, fingerprint: string, outcome: SendOutcome, expiresAt: number): Promise<void> {
    guarded(() => this.write.run({ ...key, fingerprint, expiresAt, ...encodeSendOutcome(outcome) }));
  }

  async release(key: SendKey, fingerprint: string): Promise<void> {
    guarded(() => this.drop.run(key.principal, key.tenant, key.messageId, fingerprint));
  }
}
