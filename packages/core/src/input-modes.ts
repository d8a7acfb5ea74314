/**
 * Input modes (spec §5.5 `defaultInputModes`, `AgentSkill.inputModes`): the media types an
 * agent's card says it accepts, enforced on every incoming message before the agent runs, so a
 * client that sends what the agent cannot read gets ContentTypeNotSupported (JSON-RPC -32005,
 * HTTP 400, gRPC INVALID_ARGUMENT) instead of a run that quietly ignores the part.
 * @internal
 */
import type { AgentCard, Message, Part } from '@a2a-polyglot/model';
import { A2AError } from './a2a-error.js';
import { A2AErrorCode } from './error-code.js';
import { mediaTypeParts } from './request-validation.js';

/**
 * The media type a part is read as: its own `mediaType` when it has one, else by its kind:
 * text is `text/plain`, data is `application/json`, and a file (inline bytes or a URL) whose
 * sender named no type is `application/octet-stream`, the type of bytes of unknown kind
 * (RFC 2046 §4.5.1), so only an agent that accepts any file (`*\/*`, `application/*`) takes it.
 */
export function partMediaType(part: Part): string {
  if (part.mediaType.trim() !== '') return part.mediaType;
  switch (part.content?.$case) {
    case 'text':
      return 'text/plain';
    case 'data':
      return 'application/json';
    default:
      return 'application/octet-stream';
  }
}

/**
 * Refuses a message with a part whose media type neither the card's `defaultInputModes` nor
 * any skill's `inputModes` accept (the message names no skill, so any skill that reads the part
 * is enough). Wildcards in the card (`*\/*`, `image/*`) are honoured; parameters (`;charset=`)
 * are ignored. A card that declares no input mode at all is not checked: it states nothing.
 */
export function checkInputModes(message: Message, card: AgentCard): void {
  const modes = acceptedModes(card);
  if (modes.length === 0) return;
  message.parts.forEach((part, i) => {
    const type = partMediaType(part);
    if (modes.some((mode) => accepts(mode, type))) return;
    throw new A2AError(
      A2AErrorCode.ContentTypeNotSupported,
      `message.parts[${i}] is ${type}, which this agent does not accept (its input modes: ${modes.join(', ')})`,
      { metadata: { mediaType: type, inputModes: modes.join(',') } },
    );
  });
}

/** The card's input modes and every skill's, once each (cached per card: checked on every send). */
function acceptedModes(card: AgentCard): readonly string[] {
  let modes = modesByCard.get(card);
  if (!modes) {
    modes = [...new Set([...card.defaultInputModes, ...card.skills.flatMap((s) => s.inputModes)])];
    modesByCard.set(card, modes);
  }
  return modes;
}

const modesByCard = new WeakMap<AgentCard, readonly string[]>();

/**
 * Whether the card's `mode` (which may be a wildcard) accepts a part of media type `type`.
 * One-directional on purpose, unlike the output-mode check (where both sides may hold
 * wildcards): a part that claims `*\/*` is not thereby every type an agent accepts.
 */
function accepts(mode: string, type: string): boolean {
  const [modeType, modeSub] = mediaTypeParts(mode);
  const [partType, partSub] = mediaTypeParts(type);
  if (modeType === '*') return true;
  return modeType === partType && (modeSub === '*' || modeSub === partSub);
}
