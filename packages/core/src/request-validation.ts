import type { AgentCard, Message, SendMessageConfiguration } from '@a2a-polyglot/model';
import { Role } from '@a2a-polyglot/model';
import { A2AError, errors, type FieldViolation } from './a2a-error.js';
import type { CallContext } from './call-context.js';
import { A2AErrorCode } from './error-code.js';
import { EXPERIMENTAL_VERSION, namesVersion11, negotiateVersion, type NegotiatedVersion, SUPPORTED_VERSIONS } from './protocol-version.js';

/**
 * `A2A-Version` check (spec §3.6.2): the version the request names (missing ⇒ 0.3) must be
 * the generation the binding decoded it with (`ctx.wireVersion`, 1.0 unless a v0.3 codec set
 * it). A v1.0-shaped call without the header is refused rather than guessed at, with a hint.
 * `1.1` (the experimental draft, carried by the 1.0 codecs) is served only with `experimental11`.
 * Returns what the call negotiated.
 */
export function checkVersion(ctx: CallContext, experimental11 = false): NegotiatedVersion {
  const raw = ctx.header('a2a-version');
  const requested = negotiateVersion(raw);
  const wire = ctx.wireVersion ?? '1.0';
  if (requested === wire) return requested === '1.0' && namesVersion11(raw) ? accept11(experimental11) : requested;
  const message =
    wire === '1.0'
      ? ctx.header('a2a-version')?.trim()
        ? `A2A version ${requested} was requested, but this is a v1.0 call; send A2A-Version: 1.0`
        : 'Missing A2A-Version header: a request without it is A2A 0.3, and this is a v1.0 call; send A2A-Version: 1.0'
      : `A2A version ${raw?.trim() ?? requested} was requested, but this is a v0.3 call; send A2A-Version: 0.3 or none`;
  throw new A2AError(A2AErrorCode.VersionNotSupported, message, { metadata: { supportedVersions: SUPPORTED_VERSIONS.join(',') } });
}

/** A call naming 1.1: served when the handler opted in, else refused like any version it does not serve. */
function accept11(experimental11: boolean): NegotiatedVersion {
  if (experimental11) return EXPERIMENTAL_VERSION;
  throw new A2AError(
    A2AErrorCode.VersionNotSupported,
    `A2A version ${EXPERIMENTAL_VERSION} (draft) is not enabled on this server; supported: ${SUPPORTED_VERSIONS.join(', ')}`,
    { metadata: { supportedVersions: SUPPORTED_VERSIONS.join(',') } },
  );
}

/**
 * `A2A-Extensions` handling: rejects calls that do not activate an extension the card marks
 * `required`, and records the activated set on the context so the binding can echo it.
 */
export function negotiateExtensions(ctx: CallContext, card: AgentCard): readonly string[] {
  // An agent that declares no extension activates none, whatever the client asks for: no
  // header to read or split on every call (the common case, and every call pays this).
  if (!card.capabilities?.extensions?.length) {
    ctx.activatedExtensions = NO_EXTENSIONS;
    return NO_EXTENSIONS;
  }
  const raw = ctx.header('a2a-extensions') ?? ctx.header('x-a2a-extensions') ?? '';
  const requested = new Set(
    raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
  );
  const declared = card.capabilities?.extensions ?? [];
  for (const ext of declared) {
    if (ext.required && !requested.has(ext.uri)) {
      throw new A2AError(A2AErrorCode.ExtensionSupportRequired, `The agent requires extension ${ext.uri}`, { metadata: { extension: ext.uri } });
    }
  }
  const activated = declared.filter((e) => requested.has(e.uri)).map((e) => e.uri);
  ctx.activatedExtensions = activated;
  return activated;
}

/** The activated set of a call to an agent without extensions (shared: the set is read-only). */
const NO_EXTENSIONS: readonly string[] = Object.freeze([]);

/** Semantic checks of an incoming message beyond ProtoJSON shape (spec §5.2 REQUIRED fields). */
export function validateMessage(message: Message | undefined): Message {
  if (!message) throw errors.invalidParams('message is required', [{ field: 'message', description: 'required' }]);
  // One look at the fields a valid message has; the list of violations is built only for a bad one.
  if (message.messageId && message.role !== Role.ROLE_UNSPECIFIED && message.parts.length > 0 && message.parts.every(hasContent)) return message;
  const violations: FieldViolation[] = [];
  if (!message.messageId) violations.push({ field: 'message.messageId', description: 'required' });
  if (message.role === Role.ROLE_UNSPECIFIED) violations.push({ field: 'message.role', description: 'required (ROLE_USER for client messages)' });
  if (message.parts.length === 0) violations.push({ field: 'message.parts', description: 'at least one part is required' });
  message.parts.forEach((part, i) => {
    if (!part.content) violations.push({ field: `message.parts[${i}]`, description: 'a part needs one of text, raw, url or data' });
  });
  if (violations.length > 0) throw errors.invalidParams(`Invalid message: ${violations.map((v) => `${v.field} ${v.description}`).join('; ')}`, violations);
  return message;
}

function hasContent(part: Message['parts'][number]): boolean {
  return !!part.content;
}

/** `historyLength` must be ≥ 0 when set. */
export function validateHistoryLength(value: number | undefined, field = 'historyLength'): number | undefined {
  if (value !== undefined && value < 0) throw errors.invalidParams(`${field} must be >= 0`, [{ field, description: 'must be >= 0' }]);
  return value;
}

/**
 * Checks `acceptedOutputModes` against what the agent can produce: at least one must match
 * (wildcards like `text/*` and `*\/*` honoured), else ContentTypeNotSupported.
 */
export function checkOutputModes(configuration: SendMessageConfiguration | undefined, card: AgentCard): void {
  const accepted = configuration?.acceptedOutputModes ?? [];
  if (accepted.length === 0 || card.defaultOutputModes.length === 0) return;
  const produced = new Set([...card.defaultOutputModes, ...card.skills.flatMap((s) => s.outputModes)]);
  for (const want of accepted) {
    for (const have of produced) if (mediaTypeMatches(want, have)) return;
  }
  throw new A2AError(
    A2AErrorCode.ContentTypeNotSupported,
    `None of the accepted output modes (${accepted.join(', ')}) can be produced; the agent produces ${[...produced].join(', ')}`,
  );
}

function mediaTypeMatches(a: string, b: string): boolean {
  const [ta, sa] = mediaTypeParts(a);
  const [tb, sb] = mediaTypeParts(b);
  if (ta === '*' || tb === '*') return true;
  if (ta !== tb) return false;
  return sa === '*' || sb === '*' || sa === sb;
}

/** Type and subtype of a media type, lower-cased, its parameters (`;charset=...`) dropped. */
export function mediaTypeParts(mediaType: string): string[] {
  const semicolon = mediaType.indexOf(';');
  return (semicolon < 0 ? mediaType : mediaType.slice(0, semicolon)).trim().toLowerCase().split('/');
}
