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

/** The generation a request speaks when it names none (spec §3.6.2: missing or empty ⇒ 0.3). */
export const DEFAULT_PROTOCOL_VERSION: ProtocolVersion = '0.3';

/**
 * Reads an `A2A-Version` value (header, gRPC metadata or query parameter) as a served
 * generation: missing or empty ⇒ 0.3; otherwise its `Major.Minor` (`1.0.1` is 1.0, `0.3.0`
 * is 0.3). Bindings call it to pick their codec; the core calls it to check the pick.
 *
 * @throws A2AError VersionNotSupported for anything else (`2.0`, `1`, `abc`).
 */
export function negotiateVersion(raw: string | undefined): ProtocolVersion {
  // The header every v1.0 call carries, spelled as clients send it: no trim, no regex.
  if (raw === '1.0') return '1.0';
  const value = raw?.trim() ?? '';
  if (value === '') return DEFAULT_PROTOCOL_VERSION;
  const match = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(value);
  const majorMinor = match ? `${Number(match[1])}.${Number(match[2])}` : undefined;
  const served = SUPPORTED_VERSIONS.find((v) => v === majorMinor);
  if (served) return served;
  throw new A2AError(A2AErrorCode.VersionNotSupported, `A2A version ${clipInput(value)} is not supported; supported: ${SUPPORTED_VERSIONS.join(', ')}`, {
    metadata: { supportedVersions: SUPPORTED_VERSIONS.join(',') },
  });
}
