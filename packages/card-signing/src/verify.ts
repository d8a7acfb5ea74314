import type { AgentCard } from '@a2a-polyglot/model';
import { base64url, createLocalJWKSet, decodeProtectedHeader, errors, flattenedVerify, type JSONWebKeySet } from 'jose';
import { canonicalCardPayload } from './canonical.js';
import { CardSignatureError, type CardSignatureFailure } from './errors.js';

/**
 * The algorithms a verifier accepts unless told otherwise: the asymmetric JWS algorithms.
 * Symmetric ones (HS256, ...) are left out on purpose: a shared secret proves nothing to a
 * party that holds it too.
 */
export const DEFAULT_VERIFY_ALGORITHMS: readonly string[] = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512', 'ES256', 'ES384', 'ES512', 'EdDSA'];

/** Options of {@link verifyCardSignature}. */
export interface VerifyCardOptions {
  /** Algorithms to accept. Default {@link DEFAULT_VERIFY_ALGORITHMS}. */
  readonly algorithms?: readonly string[];
}

/** The signature that verified. */
export interface VerifiedCardSignature {
  readonly kid: string;
  readonly alg: string;
}

/**
 * Checks that at least one of the card's signatures verifies with a key of `keys` (a JWKS,
 * keys chosen by `kid`), over {@link canonicalCardPayload} of the card (spec §8: verifiers
 * check at least one; several allow key rotation). A `jku` in a signature's header is never
 * fetched: a card cannot name its own trust anchor. Resolves with the signature that verified;
 * rejects with a {@link CardSignatureError} saying why none did.
 */
export async function verifyCardSignature(card: AgentCard, keys: JSONWebKeySet, options: VerifyCardOptions = {}): Promise<VerifiedCardSignature> {
  if (card.signatures.length === 0) throw new CardSignatureError('unsigned', `The agent card "${card.name}" is not signed`);
  const payload = base64url.encode(canonicalCardPayload(card));
  const keySet = createLocalJWKSet(keys);
  const algorithms = [...(options.algorithms ?? DEFAULT_VERIFY_ALGORITHMS)];
  const failures: Array<{ failure: CardSignatureFailure; detail: string; cause: unknown }> = [];
  for (const [i, signature] of card.signatures.entries()) {
    try {
      const header = decodeProtectedHeader(signature);
      if (typeof header.alg !== 'string' || typeof header.kid !== 'string') {
        failures.push({ failure: 'malformed', detail: `signatures[${i}] has no alg and kid in its protected header`, cause: undefined });
        continue;
      }
      await flattenedVerify({ payload, protected: signature.protected, signature: signature.signature, header: signature.header }, keySet, { algorithms });
      return { kid: header.kid, alg: header.alg };
    } catch (error) {
      failures.push(describe(error, i));
    }
  }
  const worst = failures.find((f) => f.failure === 'invalid-signature') ?? failures.find((f) => f.failure === 'unknown-key') ?? failures[0];
  const failure = worst?.failure ?? 'malformed';
  const lead =
    failure === 'invalid-signature'
      ? `The agent card "${card.name}" does not match its signature: it was changed after it was signed`
      : failure === 'unknown-key'
        ? `The agent card "${card.name}" is signed with no key this client trusts`
        : `The agent card "${card.name}" has no readable signature`;
  throw new CardSignatureError(failure, `${lead} (${failures.map((f) => f.detail).join('; ')})`, { cause: worst?.cause });
}

function describe(error: unknown, i: number): { failure: CardSignatureFailure; detail: string; cause: unknown } {
  if (error instanceof errors.JWSSignatureVerificationFailed) return { failure: 'invalid-signature', detail: `signatures[${i}] does not verify`, cause: error };
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JOSEAlgNotAllowed)
    return { failure: 'unknown-key', detail: `signatures[${i}]: ${error.message}`, cause: error };
  const message = error instanceof Error ? error.message : String(error);
  return { failure: 'malformed', detail: `signatures[${i}]: ${message}`, cause: error };
}
