import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validateLiteCard, type LiteCard } from '@a2a-polyglot/a2a-lite';

/** A peer that introduced itself with `[A2A:card]`: its `a2a-lite/1.0` card, or just the card's prose. */
export interface KnownLiteAgent {
  readonly id: string;
  /** The JSON card, when the peer sent one. */
  readonly card?: LiteCard;
  /** The natural-language body of its `[A2A:card]` (what `discover agent=<id>` answers with). */
  readonly summary: string;
  readonly updatedAt: string;
}

/** Ids usable as file names: the skill stores `known-agents/<agent-id>.json`. */
const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** How many peers the memory side keeps (oldest forgotten first); the directory keeps them all. */
const MAX_IN_MEMORY = 1000;

/**
 * The A2A-Lite skill's known-agents cache (`skills/a2a-lite/known-agents/<agent-id>.json`):
 * the cards of peers that introduced themselves, so a later `[A2A:discover agent=<id>]` on
 * the chat channel gets that peer's capabilities without asking it again. Memory always;
 * with a directory, every card is also written there as `<id>.json` and read back after a
 * restart (the skill's flat-file layout).
 *
 * Hand-written bound (insertion-ordered Map): the only LRU package installed is an old,
 * dev-only transitive one.
 */
export class KnownLiteAgents {
  private readonly memory = new Map<string, KnownLiteAgent>();

  constructor(private readonly dir?: string) {}

  /** True when `id` can name a cached peer (and its file). */
  static isValidId(id: string): boolean {
    return AGENT_ID.test(id) && id !== '.' && id !== '..';
  }

  /** Caches (or replaces) a peer. Throws on an id that cannot name a file. */
  async put(agent: Omit<KnownLiteAgent, 'updatedAt'>): Promise<KnownLiteAgent> {
    if (!KnownLiteAgents.isValidId(agent.id)) throw new Error(`invalid agent id ${JSON.stringify(agent.id)}`);
    const entry: KnownLiteAgent = { ...agent, updatedAt: new Date().toISOString() };
    this.remember(entry);
    if (this.dir) {
      await mkdir(this.dir, { recursive: true });
      await writeFile(join(this.dir, `${entry.id}.json`), `${JSON.stringify(entry, null, 2)}\n`);
    }
    return entry;
  }

  /** The cached peer, from memory or the directory; undefined when unknown. */
  async get(id: string): Promise<KnownLiteAgent | undefined> {
    if (!KnownLiteAgents.isValidId(id)) return undefined;
    const cached = this.memory.get(id);
    if (cached || !this.dir) return cached;
    let text: string;
    try {
      text = await readFile(join(this.dir, `${id}.json`), 'utf8');
    } catch {
      return undefined;
    }
    const entry = parseEntry(text, id);
    if (entry) this.remember(entry);
    return entry;
  }

  private remember(entry: KnownLiteAgent): void {
    this.memory.delete(entry.id);
    this.memory.set(entry.id, entry);
    if (this.memory.size > MAX_IN_MEMORY) {
      const oldest = this.memory.keys().next();
      if (!oldest.done) this.memory.delete(oldest.value);
    }
  }
}

/** A cache file, or undefined when it is not one (hand-edited, truncated). */
function parseEntry(text: string, id: string): KnownLiteAgent | undefined {
  try {
    const value = JSON.parse(text) as Partial<KnownLiteAgent>;
    if (typeof value.summary !== 'string') return undefined;
    const card = value.card !== undefined && validateLiteCard(value.card).length === 0 ? value.card : undefined;
    return { id, summary: value.summary, updatedAt: typeof value.updatedAt === 'string' ? value.updatedAt : '', ...(card && { card }) };
  } catch {
    return undefined;
  }
}
