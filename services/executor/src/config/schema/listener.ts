/**
 * The listener sections: `rateLimit` (budgets per client address and identity), `websocket`
 * (the WebSocket binding's flood guard), `tls`, `cardSigning`, and `protocol` (protocol
 * versions served beyond the stable ones).
 */
import { CARD_SIGNING_ALGORITHMS } from '@a2a-polyglot/card-signing';
import { DEFAULT_RATE_LIMIT_MAX_KEYS } from '@a2a-polyglot/server';
import { settingMeta } from './setting.js';
import { absoluteUrl, bool, intIn, nonEmpty, oneOf, section } from './values.js';

const points = intIn(0, 1_000_000_000);
const windowSec = intIn(1, 24 * 60 * 60);

/** `rateLimit`: request budgets per client address and per identity, on every binding (off by default). */
export const rateLimitSchema = section({
  addressPoints: points
    .default(0)
    .describe('Requests one client address may make per window; 0 turns the per-address limit off.')
    .register(settingMeta, { env: 'A2A_RATE_LIMIT_ADDRESS_POINTS' }),
  addressWindowSec: windowSec
    .default(60)
    .describe('Window of the per-address budget, seconds.')
    .register(settingMeta, { env: 'A2A_RATE_LIMIT_ADDRESS_WINDOW_SEC' }),
  identityPoints: points
    .default(0)
    .describe('Requests one authenticated identity may make per window; 0 turns it off.')
    .register(settingMeta, { env: 'A2A_RATE_LIMIT_IDENTITY_POINTS' }),
  identityWindowSec: windowSec
    .default(60)
    .describe('Window of the per-identity budget, seconds.')
    .register(settingMeta, { env: 'A2A_RATE_LIMIT_IDENTITY_WINDOW_SEC' }),
  maxKeys: intIn(1, 10_000_000)
    .default(DEFAULT_RATE_LIMIT_MAX_KEYS)
    .describe('Most client addresses (and, apart, identities) counted in memory; past it the least recently seen one starts a fresh window.')
    .register(settingMeta, { env: 'A2A_RATE_LIMIT_MAX_KEYS' }),
});

/**
 * `websocket`: the per-socket inbound flood guard of the WebSocket binding (a token bucket; a
 * socket past it is closed with 1008). Unset keys keep the binding's defaults (100 messages/s,
 * a burst of 200), which a browser never reaches but a closed-loop load client does.
 */
export const websocketSchema = section({
  maxMessagesPerSecond: intIn(1, 1_000_000_000)
    .optional()
    .describe("Sustained inbound messages per second one WebSocket may send; past it (after the burst) it is closed with 1008. Unset: the binding's 100.")
    .register(settingMeta, { env: 'A2A_WEBSOCKET_MAX_MESSAGES_PER_SECOND' }),
  messageBurst: intIn(1, 1_000_000_000)
    .optional()
    .describe("Messages one WebSocket may send at once before maxMessagesPerSecond applies. Unset: the binding's 200.")
    .register(settingMeta, { env: 'A2A_WEBSOCKET_MESSAGE_BURST' }),
});

/** `protocol`: the experimental A2A 1.1 draft (task generations, long-polling GetTask, conditional follow-ups). */
export const protocolSchema = section({
  experimental11: bool
    .default(false)
    .describe('Serve the A2A 1.1 draft to calls naming A2A-Version: 1.1 and list 1.1 interfaces in the card.')
    .register(settingMeta, { env: 'A2A_PROTOCOL_EXPERIMENTAL11', flag: '--experimental-11' }),
  longPollMaxMs: intIn(1, 10 * 60 * 1000)
    .default(30_000)
    .describe('Longest a 1.1 GetTask long poll (currentGeneration) is held before the task is answered as it is.')
    .register(settingMeta, { env: 'A2A_LONG_POLL_MAX_MS' }),
});

/** `tls`: HTTPS/WSS on the HTTP listener and TLS on gRPC; with a client CA, mutual TLS on gRPC. */
export const tlsSchema = section({
  certFile: nonEmpty
    .optional()
    .describe('PEM certificate chain of both listeners (relative to the config file).')
    .register(settingMeta, { env: 'A2A_TLS_CERT_FILE' }),
  keyFile: nonEmpty.optional().describe('PEM private key of certFile.').register(settingMeta, { env: 'A2A_TLS_KEY_FILE' }),
  clientCaFile: nonEmpty
    .optional()
    .describe('PEM CA that gRPC client certificates must chain to: mutual TLS on gRPC.')
    .register(settingMeta, { env: 'A2A_TLS_CLIENT_CA_FILE' }),
  clientCertIdentity: bool
    .default(false)
    .describe("The verified client certificate's subject becomes the caller's identity.")
    .register(settingMeta, { env: 'A2A_TLS_CLIENT_CERT_IDENTITY' }),
});

/** `cardSigning`: the key the agent cards (public and extended) are signed with (spec §8 signatures). */
export const cardSigningSchema = section({
  keyFile: nonEmpty
    .optional()
    .describe('Private key that signs the agent cards: PEM or a JWK in JSON; RSA, P-256 or Ed25519 (relative to the config file). Unset: unsigned cards.')
    .register(settingMeta, { env: 'A2A_CARD_SIGNING_KEY_FILE', flag: '--card-signing-key-file' }),
  kid: nonEmpty
    .optional()
    .describe("Key id in the signatures, how verifiers find the public key. Unset: the JWK's kid.")
    .register(settingMeta, { env: 'A2A_CARD_SIGNING_KID', flag: '--card-signing-kid' }),
  alg: oneOf(CARD_SIGNING_ALGORITHMS)
    .optional()
    .describe('RS256, ES256 or EdDSA. Unset: what the key signs.')
    .register(settingMeta, { env: 'A2A_CARD_SIGNING_ALG' }),
  jku: absoluteUrl.optional().describe('URL of a JWKS holding the public key, named in the signatures.').register(settingMeta, { env: 'A2A_CARD_SIGNING_JKU' }),
});
