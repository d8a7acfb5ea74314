import { CardSignatureError, verifyCardSignature, type JSONWebKeySet, type JWK, type VerifiedCardSignature } from '@a2a-polyglot/card-signing';
import { A2AErrorCode } from '@a2a-polyglot/core';
import { AgentCard, type AgentInterface } from '@a2a-polyglot/model';
import { isV03Card } from './card-v03.js';
import { clientError, notA2A } from './failures.js';
import { describeBody, isRecord, openHttp, readText, tryParseJson } from './http.js';

/**
 * Which keys an agent card must be signed with (spec §8 signatures), for `verifyCard`: a
 * card without a signature that one of them verifies is refused. The card's own `jku` is never
 * followed (a card cannot vouch for itself): the keys come from here only.
 */
export interface CardVerification {
  /** Trusted public keys (JWKs with `kid`). */
  readonly keys?: readonly JWK[];
  /** A JWKS URL to fetch trusted keys from (fetched on first use, again when a signature names an unknown `kid`). */
  readonly jwksUrl?: string;
  /** Accepted JWS algorithms. Default: the asymmetric ones (`DEFAULT_VERIFY_ALGORITHMS`). */
  readonly algorithms?: readonly string[];
}

/** How a {@link CardVerifier} fetches a JWKS: the client's fetch, headers and deadline. */
export interface JwksFetch {
  readonly fetch: typeof fetch;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/**
 * Checks cards against one {@link CardVerification}, holding the fetched JWKS between checks
 * (the public card at `connect`, the extended card later). A card that fails is an `A2AError`
 * with `clientFailure: 'bad-card-signature'` and the `CardSignatureError` as its cause.
 */
export class CardVerifier {
  private fetched: Promise<JWK[]> | undefined;

  constructor(
    private readonly verification: CardVerification,
    private readonly http: JwksFetch,
  ) {
    if (!verification.keys?.length && !verification.jwksUrl) throw new TypeError('verifyCard needs keys or a jwksUrl');
  }

  /** Verifies a card as served (JSON): a v0.3-shaped card cannot be checked (see {@link verify}). */
  async verifyJson(json: unknown, source: string): Promise<VerifiedCardSignature> {
    if (isRecord(json) && isV03Card(json)) {
      throw refused(
        new CardSignatureError('v03-card', 'The agent card is a v0.3 card: a signature covers the v1.0 form of a card, which this one has lost'),
        source,
      );
    }
    return this.verify(AgentCard.fromJSON(json), source);
  }

  /**
   * Verifies a card a binding decoded (the extended card), read over `via`: over a v0.3
   * interface the card came in its v0.3 form and was translated back, which has lost what a
   * signature covers, so it is refused rather than checked.
   */
  verifyDecoded(card: AgentCard, via: AgentInterface, source: string): Promise<VerifiedCardSignature> {
    if (via.protocolVersion === '0.3') {
      const why = 'it was read over a v0.3 interface, whose card form has lost what a signature covers; use a v1.0 interface';
      return Promise.reject(refused(new CardSignatureError('v03-card', `The agent card "${card.name}" cannot be verified: ${why}`), source));
    }
    return this.verify(card, source);
  }

  /** Verifies a card; re-reads the JWKS once when a signature names an unknown key. */
  async verify(card: AgentCard, source: string): Promise<VerifiedCardSignature> {
    try {
      return await verifyCardSignature(card, { keys: await this.keys(false) }, { algorithms: this.verification.algorithms });
    } catch (error) {
      if (error instanceof CardSignatureError && error.failure === 'unknown-key' && this.verification.jwksUrl) {
        try {
          return await verifyCardSignature(card, { keys: await this.keys(true) }, { algorithms: this.verification.algorithms });
        } catch (again) {
          throw refused(again, source);
        }
      }
      throw refused(error, source);
    }
  }

  private async keys(refresh: boolean): Promise<JWK[]> {
    const own = [...(this.verification.keys ?? [])];
    const url = this.verification.jwksUrl;
    if (!url) return own;
    if (refresh || !this.fetched) {
      this.fetched = fetchJwks(url, this.http);
      this.fetched.catch(() => (this.fetched = undefined));
    }
    return [...own, ...(await this.fetched)];
  }
}

/** The keys of the JWKS at `url`: a JSON object with a `keys` array, else not-a2a. */
async function fetchJwks(url: string, http: JwksFetch): Promise<JWK[]> {
  const open = await openHttp(http.fetch, {
    url,
    method: 'GET',
    headers: new Headers({ Accept: 'application/jwk-set+json, application/json' }),
    signal: http.signal,
    timeoutMs: http.timeoutMs,
    what: `GET ${url}`,
  });
  const text = await readText(open, url);
  const json = tryParseJson(text) as Partial<JSONWebKeySet> | undefined;
  if (open.response.status !== 200 || !isRecord(json) || !Array.isArray(json.keys)) {
    throw notA2A(
      `The JWKS at ${url} answered HTTP ${open.response.status} (${describeBody(open.response.headers.get('content-type') ?? '', text)}) instead of a key set`,
    );
  }
  return json.keys;
}

function refused(error: unknown, source?: string) {
  if (!(error instanceof CardSignatureError)) return error;
  return clientError(A2AErrorCode.InvalidAgentResponse, 'bad-card-signature', source ? `${error.message} (${source})` : error.message, error);
}
