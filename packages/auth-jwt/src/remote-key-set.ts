import { createLocalJWKSet, errors as joseErrors, type FlattenedJWSInput, type JWSHeaderParameters, type KeyLike } from 'jose';
import { fetchJwks, type FetchJwksLimits, JwksUnavailableError } from './fetch-jwks.js';

/** Settings of {@link RemoteKeySet}. */
export interface RemoteKeySetOptions extends FetchJwksLimits {
  /** How long fetched keys are trusted before they are fetched again. */
  readonly cacheMaxAgeMs: number;
  /** Least time between two fetches for a key id not seen yet (key rotation). */
  readonly cooldownMs: number;
  /** Wait after a failed fetch before the next one; doubles with each failure in a row… */
  readonly backoffMinMs: number;
  /** …up to this. */
  readonly backoffMaxMs: number;
}

/**
 * The identity provider's keys, for jose's `jwtVerify`: fetched with {@link fetchJwks}
 * (deadline, byte cap), at most one fetch in flight whatever the number of waiting requests,
 * and after a failure no fetch again until a backoff has passed (doubling while the provider
 * keeps failing): meanwhile requests fail at once with {@link JwksUnavailableError} instead of
 * each sending the provider one more request. Key selection (`kid`, `alg`, `use`) is jose's
 * `createLocalJWKSet`. Keys older than `cacheMaxAgeMs` are not used: when they cannot be
 * fetched again, tokens cannot be verified (a key the provider withdrew must stop working).
 */
export class RemoteKeySet {
  private keys: { readonly select: ReturnType<typeof createLocalJWKSet>; readonly fetchedAt: number } | undefined;
  private inFlight: Promise<void> | undefined;
  private failures = 0;
  private retryAt = 0;
  private lastFailure: JwksUnavailableError | undefined;

  constructor(
    private readonly url: URL,
    private readonly options: RemoteKeySetOptions,
  ) {}

  /** The `getKey` function `jwtVerify` takes. */
  readonly getKey = async (header: JWSHeaderParameters, token: FlattenedJWSInput): Promise<KeyLike | Uint8Array> => {
    if (!this.keys || Date.now() - this.keys.fetchedAt >= this.options.cacheMaxAgeMs) await this.refresh();
    try {
      return await this.current().select(header, token);
    } catch (error) {
      // A key id not seen yet: the provider may have rotated its keys since the last fetch.
      if (!(error instanceof joseErrors.JWKSNoMatchingKey) || Date.now() - this.current().fetchedAt < this.options.cooldownMs) throw error;
      await this.refresh();
      return this.current().select(header, token);
    }
  };

  private current(): NonNullable<RemoteKeySet['keys']> {
    if (!this.keys) throw new JwksUnavailableError('no keys fetched');
    return this.keys;
  }

  /** Fetches the keys, or joins the fetch under way; refuses at once while backing off after a failure. */
  private refresh(): Promise<void> {
    if (this.inFlight) return this.inFlight;
    if (this.lastFailure && Date.now() < this.retryAt) return Promise.reject(this.lastFailure);
    this.inFlight = fetchJwks(this.url, this.options)
      .then(
        (jwks) => {
          this.keys = { select: createLocalJWKSet(jwks), fetchedAt: Date.now() };
          this.failures = 0;
          this.lastFailure = undefined;
        },
        (error: unknown) => {
          const failure = error instanceof JwksUnavailableError ? error : new JwksUnavailableError('fetch failed', { cause: error });
          this.failures++;
          this.lastFailure = failure;
          this.retryAt = Date.now() + Math.min(this.options.backoffMaxMs, this.options.backoffMinMs * 2 ** Math.min(this.failures - 1, 30));
          throw failure;
        },
      )
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }
}
