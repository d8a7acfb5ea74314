import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createCardSigner, withSignatures, type CardSigner, type CardSigningAlgorithm } from '@a2a-polyglot/card-signing';
import type { AgentCard } from '@a2a-polyglot/model';
import { ConfigError, type ExecutorConfig } from './config.js';

/**
 * The service's card signer from `cardSigning` (undefined when no key is configured, the
 * default): one per configuration, shared by every agent, so each card content is signed once
 * whichever listener serves it. The key is read and checked here, at startup: an unreadable
 * file, a public key, an unsupported key type or an `alg` that does not fit the key is a
 * configuration error naming the key, not a failing card request later.
 */
export function cardSignerFor(config: Pick<ExecutorConfig, 'cardSigning'>): CardSigner | undefined {
  if (!signers.has(config.cardSigning)) signers.set(config.cardSigning, loadSigner(config.cardSigning));
  return signers.get(config.cardSigning);
}

const signers = new WeakMap<ExecutorConfig['cardSigning'], CardSigner | undefined>();

/** `build` with its result signed, when the service signs cards (the extended card's provider). */
export function signedCards<A extends unknown[]>(
  config: Pick<ExecutorConfig, 'cardSigning'>,
  build: (...args: A) => AgentCard | Promise<AgentCard>,
): (...args: A) => Promise<AgentCard> {
  const signer = cardSignerFor(config);
  return async (...args) => {
    const card = await build(...args);
    return signer ? withSignatures(card, signer) : card;
  };
}

function loadSigner(settings: ExecutorConfig['cardSigning']): CardSigner | undefined {
  const { keyFile } = settings;
  if (!keyFile) return undefined;
  const { key, jwkKid } = readKey(keyFile);
  const alg = algorithmFor(key, settings.alg);
  const kid = settings.kid ?? jwkKid;
  if (!kid) throw new ConfigError('Invalid configuration: cardSigning.kid (A2A_CARD_SIGNING_KID) is required: the key has no kid of its own');
  return createCardSigner({ key, alg, kid, jku: settings.jku });
}

/** The private key of `path`: a JWK (JSON, with its `kid` if any) or PEM (PKCS#8, PKCS#1, SEC1). */
function readKey(path: string): { key: KeyObject; jwkKid?: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(`Invalid configuration: cardSigning.keyFile ${path} cannot be read: ${(error as Error).message}`);
  }
  const bad = (why: string) => new ConfigError(`Invalid configuration: cardSigning.keyFile ${path} ${why}`);
  if (text.trimStart().startsWith('{')) {
    let jwk: Record<string, unknown>;
    try {
      jwk = JSON.parse(text) as Record<string, unknown>;
    } catch {
      throw bad('is neither PEM nor a JSON Web Key (its JSON does not parse)');
    }
    if (typeof jwk.d !== 'string') throw bad('holds a public JWK; signing needs the private key (with "d")');
    try {
      return { key: createPrivateKey({ key: jwk, format: 'jwk' }), jwkKid: typeof jwk.kid === 'string' ? jwk.kid : undefined };
    } catch (error) {
      throw bad(`is not a usable private JWK: ${(error as Error).message}`);
    }
  }
  try {
    return { key: createPrivateKey(text) };
  } catch {
    throw bad('is not a PEM private key (PKCS#8, or PKCS#1 / SEC1) nor a JSON Web Key');
  }
}

/**
 * The algorithm of a key: RSA (2048 bits or more) signs RS256, P-256 ES256, Ed25519 EdDSA. A
 * configured `alg` must be the one the key can make.
 */
function algorithmFor(key: KeyObject, configured: CardSigningAlgorithm | undefined): CardSigningAlgorithm {
  const details = key.asymmetricKeyDetails ?? {};
  let alg: CardSigningAlgorithm | undefined;
  if (key.asymmetricKeyType === 'rsa') {
    if ((details.modulusLength ?? 0) < 2048)
      throw new ConfigError('Invalid configuration: cardSigning.keyFile is an RSA key under 2048 bits; RS256 needs 2048 or more');
    alg = 'RS256';
  } else if (key.asymmetricKeyType === 'ec' && details.namedCurve === 'prime256v1') alg = 'ES256';
  else if (key.asymmetricKeyType === 'ed25519') alg = 'EdDSA';
  const type = key.asymmetricKeyType === 'ec' ? `EC ${details.namedCurve}` : key.asymmetricKeyType;
  if (!alg)
    throw new ConfigError(`Invalid configuration: cardSigning.keyFile is a ${type} key; card signing takes RSA (RS256), P-256 (ES256) or Ed25519 (EdDSA)`);
  if (configured && configured !== alg)
    throw new ConfigError(`Invalid configuration: cardSigning.alg ${configured} does not fit the ${type} key of cardSigning.keyFile (it signs ${alg})`);
  return alg;
}
