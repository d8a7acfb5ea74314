/**
 * Agent card signatures (spec §8): servers sign the card they serve, clients check it. One
 * canonical payload for both ({@link canonicalCardPayload}), the one the official SDKs use.
 */
export * from './canonical.js';
export * from './errors.js';
export * from './signer.js';
export * from './verify.js';
export type { JSONWebKeySet, JWK, KeyLike } from 'jose';
