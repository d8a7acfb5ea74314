/**
 * The listener sections: `rateLimit` (budgets per client address and identity), `tls`,
 * `cardSigning`, and `protocol` (protocol versions served beyond the stable ones).
 */
import { CARD_SIGNING_ALGORITHMS } from '@a2a-polyglot/card-signing';
import { absoluteUrl, bool, intIn, nonEmpty, oneOf, section } from './values.js';

const points = intIn(0, 1_000_000_000);
const windowSec = intIn(1, 24 * 60 * 60);

/** `rateLimit`: request budgets per client address and per identity, on every binding (off by default). */
export const rateLimitSchema = section({
  addressPoints: points
    .optional()
    .describe('Requests one client address may make per window; 0 turns the per-address limit off (A2A_RATE_LIMIT_ADDRESS_POINTS). Default 0.'),
  addressWindowSec: windowSec.optional().describe('Window of the per-address budget, seconds (A2A_RATE_LIMIT_ADDRESS_WINDOW_SEC). Default 60.'),
  identityPoints: points
    .optional()
    .describe('Requests one authenticated identity may make per window; 0 turns it off (A2A_RATE_LIMIT_IDENTITY_POINTS). Default 0.'),
  identityWindowSec: windowSec.optional().describe('Window of the per-identity budget, seconds (A2A_RATE_LIMIT_IDENTITY_WINDOW_SEC). Default 60.'),
  maxKeys: intIn(1, 10_000_000)
    .optional()
    .describe(
      'Most client addresses (and, apart, identities) counted in memory; past it the least recently seen one starts a fresh window (A2A_RATE_LIMIT_MAX_KEYS). Default 10000.',
    ),
});

/** `protocol`: the experimental A2A 1.1 draft (task generations, long-polling GetTask, conditional follow-ups). */
export const protocolSchema = section({
  experimental11: bool
    .optional()
    .describe('Serve the A2A 1.1 draft to calls naming A2A-Version: 1.1 and list 1.1 interfaces in the card (A2A_PROTOCOL_EXPERIMENTAL11). Default false.'),
  longPollMaxMs: intIn(1, 10 * 60 * 1000)
    .optional()
    .describe('Longest a 1.1 GetTask long poll (currentGeneration) is held before the task is answered as it is (A2A_LONG_POLL_MAX_MS). Default 30000.'),
});

/** `tls`: HTTPS/WSS on the HTTP listener and TLS on gRPC; with a client CA, mutual TLS on gRPC. */
export const tlsSchema = section({
  certFile: nonEmpty.optional().describe('PEM certificate chain of both listeners (relative to the config file) (A2A_TLS_CERT_FILE).'),
  keyFile: nonEmpty.optional().describe('PEM private key of certFile (A2A_TLS_KEY_FILE).'),
  clientCaFile: nonEmpty.optional().describe('PEM CA that gRPC client certificates must chain to: mutual TLS on gRPC (A2A_TLS_CLIENT_CA_FILE).'),
  clientCertIdentity: bool
    .optional()
    .describe("The verified client certificate's CN becomes the caller's identity (A2A_TLS_CLIENT_CERT_IDENTITY). Default false."),
});

/** `cardSigning`: the key the agent cards (public and extended) are signed with (spec §8 signatures). */
export const cardSigningSchema = section({
  keyFile: nonEmpty
    .optional()
    .describe('Private key that signs the agent cards: PEM or a JWK in JSON; RSA, P-256 or Ed25519 (relative to the config file) (A2A_CARD_SIGNING_KEY_FILE).'),
  kid: nonEmpty.optional().describe("Key id in the signatures, how verifiers find the public key. Default: the JWK's kid (A2A_CARD_SIGNING_KID)."),
  alg: oneOf(CARD_SIGNING_ALGORITHMS).optional().describe('RS256, ES256 or EdDSA. Default: what the key signs (A2A_CARD_SIGNING_ALG).'),
  jku: absoluteUrl.optional().describe('URL of a JWKS holding the public key, named in the signatures (A2A_CARD_SIGNING_JKU).'),
});
