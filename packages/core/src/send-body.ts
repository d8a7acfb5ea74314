import { encodeMessageJson, type SendMessageRequest, TaskPushNotificationConfig } from '@a2a-polyglot/model';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';
import canonicalize from 'canonicalize';

/**
 * Bodies whose JSON is at most this long are their own fingerprint (the text itself); longer
 * ones are fingerprinted by their hash. Why: SHA-256 in JavaScript cost ~3 µs for a 128-byte
 * body (measured, a sixth of an in-process SendMessage), and a short text compares as cheaply
 * as its hash while taking no more room than a few hashes.
 */
export const INLINE_BODY_MAX = 512;

/** A legacy or long-body fingerprint: SHA-256 hex. A JSON text starts with `{`, so never matches. */
const HASH_FINGERPRINT = /^[0-9a-f]{64}$/;

/**
 * What a send asks for, as the rule of idempotent sends compares it: the message without its
 * `messageId`, the request metadata, the accepted output modes and the inline push config.
 * Left out on purpose: the tenant and the principal (they are the key already) and the options
 * that only shape the answer (`historyLength`, `returnImmediately`), which a client may change
 * between retries.
 *
 * Its {@link fingerprint} is what the idempotency stores keep: the body's ProtoJSON text when
 * at most {@link INLINE_BODY_MAX} characters, else the SHA-256 hex of its RFC 8785 canonical
 * JSON (JCS, the `canonicalize` package). Two fingerprints that differ may still be one body:
 * ProtoJSON member order follows the client's JSON for `Struct` metadata, so {@link matches}
 * compares canonical forms before it calls them different; the same send thus matches on every
 * binding and version (v0.3 and v1.0 decode to the same proto).
 *
 * Two SHA-256 implementations, each where it is cheap: a long body is hashed by Web Crypto's
 * `subtle.digest` (native, off the event loop, in Node, Workers, Deno and browsers alike),
 * which is why {@link SendBody.of} may answer a promise; `@noble/hashes` (audited, no Node
 * APIs, synchronous) hashes only short bodies, whose hash is asked for when a store holds a
 * row written before inline fingerprints. Why not one: a 3 MB send spent 55–111 ms of the event
 * loop on its fingerprint with `@noble/hashes` and 16–45 ms with Web Crypto (the rest is its
 * JSON and canonical form; measured in process on a loaded 2-core machine), so every large send
 * blocked the server; and Web Crypto's trip through the thread pool would delay every short
 * send's start for nothing.
 */
export class SendBody {
  /**
   * The body of `request`: at once when it is short, after its hash when it is long.
   * Hand-written on purpose: the choice between the two hashes is this rule's own.
   */
  static of(request: SendMessageRequest): SendBody | Promise<SendBody> {
    const text = bodyText(request);
    if (text.length <= INLINE_BODY_MAX) return new SendBody(text, text, undefined);
    const canonical = canonicalize(JSON.parse(text)) ?? '';
    return digestHex(canonical).then((hash) => new SendBody(text, hash, canonical));
  }

  private constructor(
    /** The body's ProtoJSON text ({@link bodyText}), read again only for its canonical form. */
    private readonly text: string,
    /** What the stores keep and compare first. */
    readonly fingerprint: string,
    private canonicalText: string | undefined,
  ) {}

  /** The SHA-256 hex of the canonical JSON: the fingerprint of a long body, and of every body before inline fingerprints. */
  get hash(): string {
    return HASH_FINGERPRINT.test(this.fingerprint) ? this.fingerprint : bytesToHex(sha256(utf8ToBytes(this.canonical())));
  }

  /** Whether a stored fingerprint is this body's: the same text, the same canonical JSON, or (a hash) the same canonical hash. */
  matches(stored: string): boolean {
    if (stored === this.fingerprint) return true;
    if (HASH_FINGERPRINT.test(stored)) return stored === this.hash;
    if (stored.length !== this.fingerprint.length) return false;
    try {
      return canonicalize(JSON.parse(stored)) === this.canonical();
    } catch {
      return false;
    }
  }

  private canonical(): string {
    this.canonicalText ??= canonicalize(JSON.parse(this.text)) ?? '';
    return this.canonicalText;
  }
}

/**
 * The JSON text of what a send asks for: `JSON.stringify` of `{ message, metadata,
 * acceptedOutputModes, push }` (the message's ProtoJSON without its `messageId`, the rest as
 * ProtoJSON, absent ones `null`), written directly: the model's direct encoder writes the
 * message in one walk, where `Message.toJSON` built a tree for `JSON.stringify` to walk again
 * (every send with a messageId pays this). A test holds it equal to the generated path.
 */
export function bodyText(request: SendMessageRequest): string {
  const config = request.configuration;
  const message = request.message ? encodeMessageJson({ ...request.message, messageId: '' }) : 'null';
  const metadata = request.metadata === undefined ? 'null' : JSON.stringify(request.metadata);
  const push = config?.taskPushNotificationConfig ? JSON.stringify(TaskPushNotificationConfig.toJSON(config.taskPushNotificationConfig)) : 'null';
  return `{"message":${message},"metadata":${metadata},"acceptedOutputModes":${JSON.stringify(config?.acceptedOutputModes ?? [])},"push":${push}}`;
}

/** SHA-256 hex of `text` by Web Crypto (every runtime the core runs on has `globalThis.crypto.subtle`). */
async function digestHex(text: string): Promise<string> {
  return bytesToHex(new Uint8Array(await globalThis.crypto.subtle.digest('SHA-256', new TextEncoder().encode(text))));
}
