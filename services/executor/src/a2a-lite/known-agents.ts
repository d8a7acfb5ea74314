import { mkdir, readdir, readFile, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { validateLiteCard, type LiteCard } from '@a2a-polyglot/a2a-lite';
import { isPrincipalScope, principalScope } from './principal-scope.js';
import { ScopedLru } from './scoped-lru.js';

/** A peer that introduced itself with `[A2A:card]`: its `a2a-lite/1.0` card, or just the card's prose. */
export interface KnownLiteAgent {
  readonly id: string;
  /** The JSON card, when the peer sent one. */
  readonly card?: LiteCard;
  /** The natural-language body of its `[A2A:card]` (what `discover agent=<id>` answers with). */
  readonly summary: string;
  readonly updatedAt: string;
}

/** The bounds of the known-agents cache (config `agents[i].a2aLite`). */
export interface KnownAgentsLimits {
  /** Largest `[A2A:card]` body accepted, in UTF-8 bytes (`maxCardBytes`). */
  readonly maxCardBytes: number;
  /** Peers kept, all callers together (`maxKnownAgents`). */
  readonly maxEntries: number;
  /** Bytes of cached JSON kept, all callers together, in memory and so on disk (`maxKnownAgentsBytes`). */
  readonly maxBytes: number;
  /** Peers one caller (principal) keeps; one that introduces more forgets its own oldest (`maxKnownAgentsPerPrincipal`). */
  readonly maxEntriesPerPrincipal: number;
}

/** The defaults of {@link KnownAgentsLimits}: a card is a few KiB; 1000 of 64 KiB would pass 16 MiB, so bytes bind first. */
export const KNOWN_AGENTS_LIMITS: KnownAgentsLimits = {
  maxCardBytes: 64 * 1024,
  maxEntries: 1000,
  maxBytes: 16 * 1024 * 1024,
  maxEntriesPerPrincipal: 100,
};

/** Ids usable as file names: the skill stores `known-agents/<agent-id>.json`. */
const AGENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** A cached peer, with the bytes of its file (what it counts for against `maxBytes`). */
interface Stored {
  readonly entry: KnownLiteAgent;
  readonly bytes: number;
}

/**
 * The A2A-Lite skill's known-agents cache: the cards of peers that introduced themselves, so
 * a later `[A2A:discover agent=<id>]` gets that peer's capabilities without asking it again.
 *
 * Kept per caller (principal): what alice introduced only alice can discover, and bob's card
 * of the same id is bob's entry, not a replacement of hers. Bounded by {@link KnownAgentsLimits}
 * (least recently used forgotten first) in lru-cache ({@link ScopedLru}). With a directory,
 * the cache is mirrored there as `<principal scope>/<agent-id>.json` (the skill's file per
 * peer, in a folder per caller named by {@link principalScope}): written when a peer is
 * cached, removed when it is evicted, and read back at the first use after a restart (oldest
 * file first, so the same bounds hold and evict the surplus). Files outside that layout are
 * left alone and not read.
 */
export class KnownLiteAgents {
  readonly limits: KnownAgentsLimits;
  private readonly memory: ScopedLru<Stored>;
  /** Disk writes and removals, one at a time in order, so a removal never overtakes the write of the same file. */
  private disk: Promise<void> = Promise.resolve();
  private loaded: Promise<void> | undefined;

  constructor(
    private readonly dir?: string,
    limits: Partial<KnownAgentsLimits> = {},
  ) {
    this.limits = { ...KNOWN_AGENTS_LIMITS, ...limits };
    this.memory = new ScopedLru<Stored>({
      maxEntries: this.limits.maxEntries,
      maxEntriesPerScope: this.limits.maxEntriesPerPrincipal,
      maxBytes: this.limits.maxBytes,
      sizeOf: (stored) => stored.bytes,
      onRemove: (scope, id) => this.removeFile(scope, id),
    });
  }

  /** True when `id` can name a cached peer (and its file). */
  static isValidId(id: string): boolean {
    return AGENT_ID.test(id) && id !== '.' && id !== '..';
  }

  /**
   * Caches (or replaces) a peer for `principal` (undefined: the anonymous caller). Undefined
   * when the entry alone is larger than the whole cache may hold (`maxBytes`): not kept.
   * Throws on an id that cannot name a file.
   */
  async put(principal: string | undefined, agent: Omit<KnownLiteAgent, 'updatedAt'>): Promise<KnownLiteAgent | undefined> {
    if (!KnownLiteAgents.isValidId(agent.id)) throw new Error(`invalid agent id ${JSON.stringify(agent.id)}`);
    await this.load();
    const entry: KnownLiteAgent = { ...agent, updatedAt: new Date().toISOString() };
    const text = `${JSON.stringify(entry, null, 2)}\n`;
    const scope = principalScope(principal);
    if (!this.memory.set(scope, entry.id, { entry, bytes: Buffer.byteLength(text) })) return undefined;
    const { dir } = this;
    if (dir)
      await this.onDisk(async () => {
        await mkdir(join(dir, scope), { recursive: true });
        await writeFile(join(dir, scope, `${entry.id}.json`), text);
      });
    return entry;
  }

  /** The peer `principal` cached as `id`; undefined when it has none by that id. */
  async get(principal: string | undefined, id: string): Promise<KnownLiteAgent | undefined> {
    if (!KnownLiteAgents.isValidId(id)) return undefined;
    await this.load();
    return this.memory.get(principalScope(principal), id)?.entry;
  }

  /** Entries and bytes kept now (all callers). */
  get usage(): { readonly entries: number; readonly bytes: number } {
    return { entries: this.memory.size, bytes: this.memory.bytes };
  }

  /** The directory's entries, read once (first use), oldest first, through the same bounds. */
  private load(): Promise<void> {
    this.loaded ??= this.dir ? this.readDirectory(this.dir) : Promise.resolve();
    return this.loaded;
  }

  private async readDirectory(dir: string): Promise<void> {
    const files: { scope: string; id: string; path: string; mtimeMs: number }[] = [];
    for (const scope of await namesIn(dir)) {
      if (!isPrincipalScope(scope)) continue;
      for (const name of await namesIn(join(dir, scope))) {
        const id = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
        if (!KnownLiteAgents.isValidId(id)) continue;
        const path = join(dir, scope, name);
        const info = await stat(path).catch(() => undefined);
        // Larger than the cache could hold: not read into memory (and not ours to delete).
        if (info?.isFile() && info.size <= this.limits.maxBytes) files.push({ scope, id, path, mtimeMs: info.mtimeMs });
      }
    }
    files.sort((a, b) => a.mtimeMs - b.mtimeMs);
    for (const file of files) {
      const text = await readFile(file.path, 'utf8').catch(() => undefined);
      const entry = text === undefined ? undefined : parseEntry(text, file.id);
      if (text !== undefined && entry) this.memory.set(file.scope, file.id, { entry, bytes: Buffer.byteLength(text) });
    }
    // The files of the surplus this evicted are gone before the first answer.
    await this.onDisk(async () => undefined);
  }

  /** An evicted peer's file goes too (and its caller's folder, once empty). */
  private removeFile(scope: string, id: string): void {
    const { dir } = this;
    if (!dir) return;
    void this.onDisk(async () => {
      await rm(join(dir, scope, `${id}.json`), { force: true });
      await rmdir(join(dir, scope)).catch(() => undefined);
    }).catch(() => undefined);
  }

  private onDisk(op: () => Promise<void>): Promise<void> {
    const done = this.disk.then(op);
    this.disk = done.catch(() => undefined);
    return done;
  }
}

/** The names in a directory; none when it does not exist (yet). */
async function namesIn(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
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
