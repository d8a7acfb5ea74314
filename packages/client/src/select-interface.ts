import { A2AErrorCode } from '@a2a-polyglot/core';
import type { AgentCard, AgentInterface } from '@a2a-polyglot/model';
import { BINDING_IDS, bindingKeyOf, type BindingKey } from './bindings.js';
import { clientError } from './failures.js';
import { A2A_VERSION } from './http.js';

/** The protocol generations this client speaks, in the order it prefers them. */
export type ProtocolGeneration = '1.0' | '0.3';

/** Preference order of {@link selectInterface}: v1.0 whenever the card offers it. */
const GENERATIONS: readonly ProtocolGeneration[] = ['1.0', '0.3'];

/**
 * Which wire an interface's `protocolVersion` calls for: `1.x`, or unset (older v1.0 drafts
 * left it out), is v1.0; `0.3` and `0.3.x` are v0.3, whose shapes the v0.3 transports
 * translate; anything else is a version this client does not speak (undefined).
 */
export function protocolGeneration(version: string | undefined): ProtocolGeneration | undefined {
  const v = (version ?? '').trim();
  if (v === '' || v.split('.')[0] === A2A_VERSION.split('.')[0]) return '1.0';
  if (/^0\.3(\.\d+)?$/.test(v)) return '0.3';
  return undefined;
}

/** True for an interface to be spoken in A2A v0.3: the transport factories branch on it. */
export function isV03Interface(agentInterface: AgentInterface): boolean {
  return protocolGeneration(agentInterface.protocolVersion) === '0.3';
}

/**
 * Picks the interface to talk to (spec §8): walks `supportedInterfaces` in the server's order
 * (first = preferred) and takes the first whose binding the caller allows and which speaks
 * v1.0; only when there is none, the first allowed v0.3 interface (a v0.3 server, or a card
 * that offers a binding in v0.3 only). No match is an error that lists what the card offers.
 */
export function selectInterface(card: AgentCard, allowed: readonly BindingKey[]): { agentInterface: AgentInterface; binding: BindingKey } {
  for (const generation of GENERATIONS) {
    for (const agentInterface of card.supportedInterfaces) {
      const binding = bindingKeyOf(agentInterface.protocolBinding);
      if (binding && allowed.includes(binding) && protocolGeneration(agentInterface.protocolVersion) === generation) return { agentInterface, binding };
    }
  }
  const offered = card.supportedInterfaces.map((i) => `${i.protocolBinding}${i.protocolVersion ? ` (${i.protocolVersion})` : ''}`).join(', ') || 'nothing';
  const wanted = allowed.map((k) => BINDING_IDS[k]).join(', ');
  throw clientError(
    A2AErrorCode.UnsupportedOperation,
    'bad-card',
    `The agent "${card.name}" offers ${offered}; none matches what this client may use (${wanted}, A2A ${GENERATIONS.join(' or ')})`,
  );
}
