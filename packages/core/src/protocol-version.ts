import { clipInput } from '@a2a-polyglot/model';
import { A2AError } from './a2a-error.js';
import { A2AErrorCode } from './error-code.js';

/**
 * The protocol generations this server speaks, as `Major.Minor` (spec §1: patch numbers are
 * never negotiated). v1.0 is the model every operation is written in; v0.3 is served by
 * codecs in the bindings that translate to and from it.
 */
export type ProtocolVersion = '1.0' | '0.3';

/** Every version served, newest first (the card lists interfaces in this order). */
export const SUPPORTED_VERSIONS: readonly ProtocolVersion[] = ['1.0', '0.3'];

/**
 * The draft A2A 1.1 (spec branch `dev-1.1`: task generations, long-polling GetTask, conditional
 * follow-ups). Experimental: served only by a handler that opts in
 * (`RequestHandlerOptions.experimental11`), never listed in {@link SUPPORTED_VERSIONS}. Its
 * wire is 1.0's plus a few optional fields, so it is decoded and encoded by the 1.0 codecs:
 * {@link negotiateVersion} reads it as 1.0, and the core (which knows whether the call named
 * 1.1, see {@link namesVersion11}) adds the 1.1 fields to the answers of 1.1 calls only.
 */
export const EXPERIMENTAL_VERSION = '1.1';

/** What a call negotiated: a served generation, or the experimental 1.1 on top of 1.0's wire. */
export type NegotiatedVersion = ProtocolVersion | typeof EXPERIMENTAL_VERSION;

/** The generation a request speaks when it names none (spec §3.6.2: missing or empty ⇒ 0.3). */
export const DEFAULT_PROTOCOL_VERSION: ProtocolVersion = '0.3';

/**
 * Reads an `A2A-Version` value (header, gRPC metadata or query parameter) as a served
 * generation: missing or empty ⇒ 0.3; otherwise its `Major.Minor` (`1.0.1` is 1.0, `0.3.0`
 * is 0.3), with 1.1 read as 1.0, the codec it is carried by ({@link EXPERIMENTAL_VERSION}).
 * Bindings call it to pick their codec; the core calls it to check the pick.
 *
 * @throws A2AError VersionNotSupported for anything else (`2.0`, `1`, `abc`).
 */
export function negotiateVersion(raw: string | undefined): ProtocolVersion {
  // The header every v1.0 call carries, spelled as clients send it: no trim, no regex.
  if (raw === '1.0') return '1.0';
  const value = raw?.trim() ?? '';
  if (value === '') return DEFAULT_PROTOCOL_VERSION;
  const majorMinor = majorMinorOf(value);
  if (majorMinor === EXPERIMENTAL_VERSION) return '1.0';
  const served = SUPPORTED_VERSIONS.find((v) => v === majorMinor);
  if (served) return served;
  throw new A2AError(A2AErrorCode.VersionNotSupported, `A2A version ${clipInput(value)} is not supported; supported: ${SUPPORTED_VERSIONS.join(', ')}`, {
    metadata: { supportedVersions: SUPPORTED_VERSIONS.join(',') },
  });
}

/**
 * True when an `A2A-Version` value names the experimental 1.1 (`1.1`, `1.1.0`): the core then
 * refuses the call unless the handler opted in, and otherwise answers it with the 1.1 fields.
 */
export function namesVersion11(raw: string | undefined): boolean {
  if (raw === undefined || raw === '1.0') return false;
  return majorMinorOf(raw.trim()) === EXPERIMENTAL_VERSION;
}

/** `Major.Minor` of a version value (`1.0.1` ⇒ `1.0`, `01.1` ⇒ `1.1`); undefined when it is none. */
function majorMinorOf(value: string): string | undefined {
  const match = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(value);
  return match ? `${Number(match[1])}.${Number(match[2])}` : undefined;
}
