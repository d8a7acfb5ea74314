import type { AgentCard, AgentCardSignature } from '@a2a-polyglot/model';
import { FlattenedSign, importJWK, type JWK, type KeyLike } from 'jose';
import { LRUCache } from 'lru-cache';
import { canonicalCardPayload } from './canonical.js';

/** The algorithms a card is signed with: RSA PKCS#1 v1.5, ECDSA P-256, Ed25519. */
export type CardSigningAlgorithm = 'RS256' | 'ES256' | 'EdDSA';

/** The {@link CardSigningAlgorithm} values, for configuration checks. */
export const CARD_SIGNING_ALGORITHMS: readonly CardSigningAlgorithm[] = ['RS256', 'ES256', 'EdDSA'];

/** The key a server signs its cards with, and what the protected header says of it. */
export interface CardSigningKey {
  /** The private key: a jose `KeyLike` (a Node `KeyObject`, a WebCrypto `CryptoKey`) or a private JWK. */
  readonly key: KeyLike | JWK;
  readonly alg: CardSigningAlgorithm;
  /** `kid`: how verifiers find the public key (in their key list or the JWKS). */
  readonly kid: string;
  /** `jku`: where the JWKS holding the public key is published, if anywhere. */
  readonly jku?: string;
}

/** Signs cards; what the server's `signCard` option and the executor's extended card call. */
export interface CardSigner {
  /** The signatures of `card` (its current `signatures` are ignored and not covered). */
  sign(card: AgentCard): Promise<AgentCardSignature[]>;
}

/** Options of {@link createCardSigner}. */
export interface CardSignerOptions {
  /**
   * How many distinct cards keep their signatures (LRU). The served card varies per request
   * Host when no public URL is configured, so each variant is signed once and then served from
   * here; a card that changes is signed anew. Default 64.
   */
  readonly cacheEntries?: number;
}

/**
 * A signer with one key: a JWS (RFC 7515) over {@link canonicalCardPayload}, protected header
 * `{alg, kid, typ: "JOSE", jku?}`, detached, as spec §8 and the official SDKs have it. The same
 * card content is signed once (see {@link CardSignerOptions.cacheEntries}), so ECDSA's random
 * signatures do not change the card's ETag on every request.
 */
export function createCardSigner(signingKey: CardSigningKey, options: CardSignerOptions = {}): CardSigner {
  const header = { alg: signingKey.alg, kid: signingKey.kid, typ: 'JOSE', ...(signingKey.jku && { jku: signingKey.jku }) };
  let key: Promise<KeyLike | Uint8Array> | undefined;
  const keyOf = () => {
    key ??= isJwk(signingKey.key) ? importJWK(signingKey.key, signingKey.alg) : Promise.resolve(signingKey.key);
    return key;
  };
  const cache = new LRUCache<string, Promise<AgentCardSignature[]>>({ max: options.cacheEntries ?? 64 });
  return {
    sign(card) {
      const payload = canonicalCardPayload(card);
      let signed = cache.get(payload);
      if (!signed) {
        signed = signPayload(payload, header, keyOf);
        cache.set(payload, signed);
        // A failure is not kept: the next request tries again.
        signed.catch(() => cache.delete(payload));
      }
      return signed.then((signatures) => signatures.map((s) => ({ ...s })));
    },
  };
}

/** `card` with `signatures` replaced by the signer's (a signed copy; `card` is not changed). */
export async function withSignatures(card: AgentCard, signer: CardSigner): Promise<AgentCard> {
  return { ...card, signatures: await signer.sign(card) };
}

async function signPayload(payload: string, header: Record<string, string>, keyOf: () => Promise<KeyLike | Uint8Array>): Promise<AgentCardSignature[]> {
  const jws = await new FlattenedSign(new TextEncoder().encode(payload)).setProtectedHeader(header).sign(await keyOf());
  return [{ protected: jws.protected ?? '', signature: jws.signature, header: undefined }];
}

function isJwk(key: KeyLike | JWK): key is JWK {
  return typeof (key as JWK).kty === 'string';
}
