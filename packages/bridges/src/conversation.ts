import { createHash } from 'node:crypto';
import type { ExecutionContext } from '@a2a-polyglot/core';

/** One chat turn as OpenAI-style APIs take it. */
export interface ChatTurn {
  readonly role: 'user' | 'assistant';
  readonly content: string;
}

/**
 * A stable, opaque upstream session key for an A2A conversation. Why hashed and scoped: a
 * contextId is chosen by clients, so two callers (tenants, principals) using the same
 * contextId must not share an upstream session, and the key must not reveal who they are.
 */
export function sessionKey(ctx: Pick<ExecutionContext, 'tenant' | 'principal' | 'contextId'>, agentId: string): string {
  const scope = [agentId, ctx.tenant, ctx.principal?.id ?? '', ctx.contextId].join('\u0000');
  return `a2a-${createHash('sha256').update(scope).digest('hex').slice(0, 32)}`;
}

/**
 * Per-conversation memory with a bound: the most recently used `maxContexts` conversations
 * are kept, each with at most `maxTurns` turns. Stateless chat APIs need the history sent
 * again on every call; this keeps contextId continuity without an unbounded map.
 */
export class ConversationMemory<T = readonly ChatTurn[]> {
  private readonly entries = new Map<string, T>();

  constructor(private readonly maxContexts = 1000) {}

  get(key: string): T | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: string, value: T): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.maxContexts) this.entries.delete(this.entries.keys().next().value as string);
  }
}

/** Appends a user/assistant exchange to a history, keeping the last `maxTurns` turns. */
export function remember(history: readonly ChatTurn[] | undefined, user: string, assistant: string, maxTurns: number): ChatTurn[] {
  const next = [...(history ?? []), { role: 'user' as const, content: user }, { role: 'assistant' as const, content: assistant }];
  return maxTurns > 0 ? next.slice(-maxTurns) : [];
}
