import { AgentCard } from '@a2a-polyglot/model';
import canonicalize from 'canonicalize';

/**
 * The text an agent card signature covers (spec §8, "Signing"): the card as v1.0 ProtoJSON
 * (unset and default members omitted, members outside the v1.0 schema dropped), without
 * `signatures`, with empty members removed, in RFC 8785 (JCS) canonical form. The JWS is
 * detached: only the signature travels, and a verifier rebuilds this text from the card it got.
 *
 * It is byte for byte what the official SDKs sign and verify (`canonicalizeAgentCard` of
 * @a2a-js/sdk, a2a-python's `canonicalize_agent_card`), so our signatures verify there and theirs
 * here. A consequence worth knowing: members outside the v1.0 schema (the v0.3 members of a
 * merged card) are not covered, and neither are values that empty out (`""`, `[]`, `{}`).
 */
export function canonicalCardPayload(card: AgentCard): string {
  const json = AgentCard.toJSON(card) as Record<string, unknown>;
  delete json.signatures;
  return canonicalize(withoutEmpty(json) ?? {}) ?? '{}';
}

/**
 * {@link canonicalCardPayload} of a card as JSON (what a client fetched), read through the
 * v1.0 schema first: unknown members are dropped, as the verifier of either SDK drops them.
 */
export function canonicalCardJsonPayload(json: unknown): string {
  return canonicalCardPayload(AgentCard.fromJSON(json));
}

/**
 * Removes empty strings, nulls, empty arrays and empty objects, recursively: a member whose
 * value empties out goes too (`{"schemes": {"apiKey": {}}}` disappears entirely). Hand-written
 * because it is not part of JCS but the SDKs' own payload rule (a2a-js `cleanEmpty`,
 * a2a-python `_clean_empty`), which a signature must follow exactly to verify on both sides.
 * `false` and `0` stay: they are values, not absences.
 */
function withoutEmpty(value: unknown): unknown {
  if (value === '' || value === null || value === undefined) return undefined;
  if (Array.isArray(value)) {
    const items = value.map(withoutEmpty).filter((v) => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => {
      const kept = withoutEmpty(v);
      return kept === undefined ? [] : [[k, kept] as const];
    });
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }
  return value;
}
