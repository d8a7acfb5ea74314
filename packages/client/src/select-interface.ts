import { A2AErrorCode } from '@a2a-polyglot/core';
import type { AgentCard, AgentInterface } from '@a2a-polyglot/model';
import { BINDING_IDS, bindingKeyOf, type BindingKey } from './bindings.js';
import { clientError } from './failures.js';
import { A2A_VERSION } from './http.js';

/**
 * True when an interface's `protocolVersion` is one this client speaks: `1.x`, or unset
 * (older v1.0 drafts left it out). `0.3` interfaces are skipped: their wire shapes differ.
 */
export function speaksVersion(version: string | undefined): boolean {
  const v = (version ?? '').trim();
  return v === '' || v.split('.')[0] === A2A_VERSION.split('.')[0];
}

/**
 * Picks the interface to talk to (spec §8): walks `supportedInterfaces` in the server's order
 * (first = preferred) and takes the first whose binding the caller allows and whose version
 * this client speaks. No match is an error that lists what the card offers.
 */
export function selectInterface(card: AgentCard, allowed: readonly BindingKey[]): { agentInterface: AgentInterface; binding: BindingKey } {
  for (const agentInterface of card.supportedInterfaces) {
    const binding = bindingKeyOf(agentInterface.protocolBinding);
    if (binding && allowed.includes(binding) && speaksVersion(agentInterface.protocolVersion)) return { agentInterface, binding };
  }
  const offered = card.supportedInterfaces.map((i) => `${i.protocolBinding}${i.protocolVersion ? ` (${i.protocolVersion})` : ''}`).join(', ') || 'nothing';
  const wanted = allowed.map((k) => BINDING_IDS[k]).join(', ');
  throw clientError(A2AErrorCode.UnsupportedOperation, 'bad-card', `The agent "${card.name}" offers ${offered}; none matches what this client may use (${wanted}, A2A ${A2A_VERSION})`);
}
