import { agentCardFromV03, type JsonObject } from '@a2a-polyglot/v03/json';

/**
 * Agent cards of both generations as the one v1.0 card JSON the client reads.
 *
 * - A v0.3 card (no `supportedInterfaces`, a top-level `url`) is translated by the v0.3 codec:
 *   `url` + `preferredTransport` and `additionalInterfaces` become `supportedInterfaces` marked
 *   `protocolVersion: "0.3"`, so interface selection and the transports know to speak v0.3.
 * - A merged card (v1.0 members plus the v0.3 top-level ones, as a2a-python and our server
 *   publish) keeps its `supportedInterfaces`; v0.3 endpoints it lists only at the top level are
 *   appended as 0.3 interfaces, so they are used only when no v1.0 one fits.
 */
export function cardJsonOfAnyVersion(card: JsonObject): JsonObject {
  const interfaces = card.supportedInterfaces ?? card.supported_interfaces;
  if (interfaces === undefined) return isV03Card(card) ? agentCardFromV03(card) : card;
  if (!Array.isArray(interfaces) || typeof card.url !== 'string') return card;
  const listed = new Set(interfaces.map((i) => endpointKey(i)));
  const legacy = (agentCardFromV03(card).supportedInterfaces as JsonObject[] | undefined) ?? [];
  const missing = legacy.filter((i) => !listed.has(endpointKey(i)));
  return missing.length === 0 ? card : { ...card, supportedInterfaces: [...interfaces, ...missing] };
}

/** A card without `supportedInterfaces` that names its endpoint the v0.3 way (top-level `url`). */
export function isV03Card(card: JsonObject): boolean {
  return card.supportedInterfaces === undefined && card.supported_interfaces === undefined && typeof card.url === 'string';
}

function endpointKey(entry: unknown): string {
  const e = (typeof entry === 'object' && entry !== null ? entry : {}) as Record<string, unknown>;
  return `${String(e.protocolBinding ?? e.protocol_binding ?? '').toUpperCase()} ${String(e.url ?? '')}`;
}
