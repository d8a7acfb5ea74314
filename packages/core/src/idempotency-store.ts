import type { Message } from '@a2a-polyglot/model';

/**
 * The key of one send: who sent it, in which tenant, under which `messageId`. A client that
 * retries a send keeps its `messageId` (spec §3.1: the id identifies the message), so the key
 * recognises the retry. The principal is part of the key so that one caller's ids never
 * answer another's sends.
 */
export interface SendKey {
  /** The caller's principal id, {@link ANONYMOUS_SEND_PRINCIPAL} when the call is not authenticated. */
  readonly principal: string;
  readonly tenant: string;
  readonly messageId: string;
}

/**
 * The principal of sends made without authentication. The empty string, because no
 * authenticator issues it (the built-in ones namespace their ids: `key:`, `jwt:`, `cert:`), so
 * anonymous keys never meet an authenticated caller's; every store writes this same value.
 */
export const ANONYMOUS_SEND_PRINCIPAL = '';

/** What the first send under a key answered: the task it created, or the agent's direct reply. */
export type SendOutcome = { readonly kind: 'task'; readonly taskId: string } | { readonly kind: 'message'; readonly message: Message };

/**
 * The answer of {@link IdempotencyStore.claim}: `new` makes the caller the key's owner (it runs
 * the send and records the outcome); `existing` is a send seen before, with the hash of its
 * body and its outcome, undefined while its owner is still starting it.
 */
export type SendClaim = { readonly kind: 'new' } | { readonly kind: 'existing'; readonly fingerprint: string; readonly outcome: SendOutcome | undefined };

/**
 * Where the sends seen within the idempotency window are remembered. Claiming is one atomic
 * step (a unique key in the durable stores, not a process map), so two instances that receive
 * the same send at once cannot both own it.
 *
 * Every entry carries an expiry (epoch ms): a claim lives until its short pending expiry, a
 * recorded send until the end of the window. An expired entry is as good as absent: a claim
 * takes it over.
 */
export interface IdempotencyStore {
  /**
   * Claims `key` for a send whose body has `fingerprint` (see `SendBody`: its short JSON text
   * or its SHA-256 hex), pending until `expiresAt`; `now` decides what expired. A store in
   * process memory may answer synchronously: the caller then costs no promise per send.
   */
  claim(key: SendKey, fingerprint: string, now: number, expiresAt: number): SendClaim | Promise<SendClaim>;
  /** Records the outcome of the send the caller claimed, remembered until `expiresAt`. */
  record(key: SendKey, fingerprint: string, outcome: SendOutcome, expiresAt: number): void | Promise<void>;
  /** Forgets a claim whose send never started (it was refused): its retry runs. Only a pending entry with `fingerprint` goes. */
  release(key: SendKey, fingerprint: string): void | Promise<void>;
}
