/**
 * Why a card failed verification:
 * - `unsigned`: the card carries no signature;
 * - `v03-card`: the card is in the v0.3 shape, which has lost what a v1.0 signature covers;
 * - `malformed`: no signature has a readable protected header with `alg` and `kid`;
 * - `unknown-key`: no signature names a key the verifier trusts (or with an algorithm it allows);
 * - `invalid-signature`: a trusted key does not verify it: the card was changed after signing.
 */
export type CardSignatureFailure = 'unsigned' | 'v03-card' | 'malformed' | 'unknown-key' | 'invalid-signature';

/**
 * A card whose signatures do not verify. Thrown by {@link verifyCardSignature}; the client
 * wraps it (as `cause`) in its `A2AError` with `clientFailure: 'bad-card-signature'`.
 */
export class CardSignatureError extends Error {
  override readonly name = 'CardSignatureError';

  constructor(
    readonly failure: CardSignatureFailure,
    message: string,
    options?: { readonly cause?: unknown },
  ) {
    super(message, options);
  }
}
