import { StreamResponse } from '@a2a-polyglot/model';
import type { ProtocolVersion } from '../protocol-version.js';

/**
 * How the webhook body of one protocol generation is written. A config gets the encoding of
 * the generation it was registered in (`StoredPushConfig.protocolVersion`): a receiver built
 * for v0.3 cannot parse a v1.0 StreamResponse, and the reverse. The core writes v1.0 itself;
 * other generations' encodings come from their codecs (the core imports none of them), e.g.
 * `V03_WEBHOOK_ENCODING` of `@a2a-polyglot/v03/json`.
 */
export interface WebhookEncoding {
  /** The body's `Content-Type`. */
  readonly contentType: string;
  /** The event as the POST body. */
  body(event: StreamResponse): string;
}

/** The encodings of generations other than 1.0, by generation. */
export type WebhookEncodings = Readonly<Partial<Record<ProtocolVersion, WebhookEncoding>>>;

/** v1.0 (spec §9): one StreamResponse as ProtoJSON, `application/a2a+json`. */
export const V1_WEBHOOK_ENCODING: WebhookEncoding = {
  contentType: 'application/a2a+json',
  body: (event) => JSON.stringify(StreamResponse.toJSON(event)),
};
