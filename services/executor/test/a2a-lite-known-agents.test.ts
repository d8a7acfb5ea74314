/** The A2A-Lite known-agents cache (memory, and a folder of `<id>.json` files per caller) and the Lite task index. */
import { mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { KnownLiteAgents, LiteTaskIndex } from '../src/a2a-lite/index.js';
import { principalScope } from '../src/a2a-lite/principal-scope.js';

const card = {
  protocol: 'a2a-lite/1.0',
  agent: { id: 'jiajia', name: '佳佳', framework: 'clawdbot' as const },
  skills: [{ id: 'research', name: 'Research', description: 'Collects sources' }],
};

/** Every file under `dir`, as paths relative to it. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((p) => statSync(join(dir, p)).isFile())
    .sort();
}

function bytesUnder(dir: string): number {
  return filesUnder(dir).reduce((sum, p) => sum + statSync(join(dir, p)).size, 0);
}

const knownDir = () => join(mkdtempSync(join(tmpdir(), 'a2a-lite-')), 'known-agents');

describe('KnownLiteAgents', () => {
  it('keeps peers in memory without a directory', async () => {
    const known = new KnownLiteAgents();
    await known.put('alice', { id: 'jiajia', summary: 'I research.', card });
    expect(await known.get('alice', 'jiajia')).toMatchObject({ id: 'jiajia', summary: 'I research.', card });
    expect(await known.get('alice', 'nobody')).toBeUndefined();
  });

  it('writes <principal scope>/<id>.json into its directory and reads it back after a restart', async () => {
    const dir = knownDir();
    await new KnownLiteAgents(dir).put('alice', { id: 'jiajia', summary: 'I research.', card });
    expect(filesUnder(dir)).toEqual([join(principalScope('alice'), 'jiajia.json')]);
    expect(JSON.parse(readFileSync(join(dir, principalScope('alice'), 'jiajia.json'), 'utf8'))).toMatchObject({ id: 'jiajia', card });
    // A file that is not a cache entry is no peer; neither is a file outside the layout.
    writeFileSync(join(dir, principalScope('alice'), 'broken.json'), '{"nope": 1}');
    writeFileSync(join(dir, 'flat.json'), JSON.stringify({ id: 'flat', summary: 'old layout' }));
    const restarted = new KnownLiteAgents(dir);
    expect(await restarted.get('alice', 'jiajia')).toMatchObject({ summary: 'I research.', card });
    expect(await restarted.get('alice', 'broken')).toBeUndefined();
    expect(await restarted.get(undefined, 'flat')).toBeUndefined();
    expect(await restarted.get('bob', 'jiajia')).toBeUndefined();
  });

  it('refuses ids that cannot name a file in the directory', async () => {
    expect(KnownLiteAgents.isValidId('../etc')).toBe(false);
    expect(KnownLiteAgents.isValidId('..')).toBe(false);
    expect(KnownLiteAgents.isValidId('a/b')).toBe(false);
    expect(KnownLiteAgents.isValidId('mexico-2.bot_1')).toBe(true);
    await expect(new KnownLiteAgents().put(undefined, { id: '../x', summary: '' })).rejects.toThrow('invalid agent id');
    expect(await new KnownLiteAgents('/nonexistent').get(undefined, '../x')).toBeUndefined();
  });

  it('keeps each principal apart: no reading or replacing another one’s entry, whatever its id holds', async () => {
    const dir = knownDir();
    const known = new KnownLiteAgents(dir);
    const odd = ['../../etc/passwd', 'jwt:https://issuer.example/#sub/..', 'x'.repeat(1000), ''];
    await known.put('alice', { id: 'jiajia', summary: 'alice’s jiajia' });
    await known.put('bob', { id: 'jiajia', summary: 'bob’s jiajia' });
    await known.put(undefined, { id: 'jiajia', summary: 'the anonymous caller’s jiajia' });
    for (const principal of odd) await known.put(principal, { id: 'jiajia', summary: `jiajia of ${principal}` });
    expect((await known.get('alice', 'jiajia'))?.summary).toBe('alice’s jiajia');
    expect((await known.get('bob', 'jiajia'))?.summary).toBe('bob’s jiajia');
    expect((await known.get(undefined, 'jiajia'))?.summary).toBe('the anonymous caller’s jiajia');
    for (const principal of odd) expect((await known.get(principal, 'jiajia'))?.summary).toBe(`jiajia of ${principal}`);
    expect(await known.get('carol', 'jiajia')).toBeUndefined();
    // One folder per caller, named by a hash: nothing outside the directory, no name too long for a file system.
    const files = filesUnder(dir);
    expect(files).toHaveLength(3 + odd.length);
    for (const file of files) expect(file).toMatch(/^[0-9a-f]{64}[/\\]jiajia\.json$/);
    expect(relative(dir, join(dir, files[0] ?? ''))).not.toMatch(/^\.\./);
  });

  it('bounds the entries, in memory and on disk, and removes the files of evicted peers', async () => {
    const dir = knownDir();
    const known = new KnownLiteAgents(dir, { maxEntries: 3, maxEntriesPerPrincipal: 3 });
    for (const id of ['a1', 'a2', 'a3']) await known.put('alice', { id, summary: id });
    await known.get('alice', 'a1'); // a1 is now the most recently used
    await known.put('bob', { id: 'b1', summary: 'b1' });
    expect(known.usage.entries).toBe(3);
    expect(await known.get('alice', 'a2')).toBeUndefined();
    expect((await known.get('alice', 'a1'))?.summary).toBe('a1');
    expect(filesUnder(dir)).toEqual(
      [join(principalScope('alice'), 'a1.json'), join(principalScope('alice'), 'a3.json'), join(principalScope('bob'), 'b1.json')].sort(),
    );
  });

  it('bounds the bytes, in memory and on disk', async () => {
    const dir = knownDir();
    const summary = 's'.repeat(1000);
    const entryBytes = Buffer.byteLength(`${JSON.stringify({ id: 'p0', summary, updatedAt: new Date().toISOString() }, null, 2)}\n`);
    const known = new KnownLiteAgents(dir, { maxBytes: 3 * entryBytes + 10 });
    for (let i = 0; i < 10; i++) await known.put(`caller-${i}`, { id: `p${i}`, summary });
    expect(known.usage).toEqual({ entries: 3, bytes: 3 * entryBytes });
    expect(filesUnder(dir)).toHaveLength(3);
    expect(bytesUnder(dir)).toBe(3 * entryBytes);
    expect(await known.get('caller-9', 'p9')).toBeDefined();
    expect(await known.get('caller-0', 'p0')).toBeUndefined();
    // An entry larger than the whole cache is not kept at all.
    expect(await known.put('caller-0', { id: 'huge', summary: summary.repeat(4) })).toBeUndefined();
    expect(await known.get('caller-0', 'huge')).toBeUndefined();
    expect(filesUnder(dir)).toHaveLength(3);
  });

  it('lets a principal that fills its share evict only its own oldest peers', async () => {
    const known = new KnownLiteAgents(undefined, { maxEntries: 100, maxEntriesPerPrincipal: 2 });
    await known.put('alice', { id: 'mine', summary: 'alice’s' });
    for (let i = 0; i < 50; i++) await known.put('bob', { id: `flood-${i}`, summary: 'bob’s' });
    expect(known.usage.entries).toBe(3);
    expect((await known.get('alice', 'mine'))?.summary).toBe('alice’s');
    expect(await known.get('bob', 'flood-47')).toBeUndefined();
    expect(await known.get('bob', 'flood-49')).toBeDefined();
  });

  it('applies the bounds to what the directory held before a restart, oldest files evicted first', async () => {
    const dir = knownDir();
    const before = new KnownLiteAgents(dir);
    for (const id of ['old', 'mid', 'new']) await before.put('alice', { id, summary: id });
    // Distinct modification times, oldest first (file systems may round to a second).
    for (const [i, id] of ['old', 'mid', 'new'].entries()) utimesSync(join(dir, principalScope('alice'), `${id}.json`), 1000 + i, 1000 + i);
    const restarted = new KnownLiteAgents(dir, { maxEntries: 2 });
    expect(await restarted.get('alice', 'old')).toBeUndefined();
    expect((await restarted.get('alice', 'new'))?.summary).toBe('new');
    expect(filesUnder(dir)).toEqual([join(principalScope('alice'), 'mid.json'), join(principalScope('alice'), 'new.json')]);
  });
});

describe('LiteTaskIndex', () => {
  it('lists the tasks of a Lite id newest first, per tenant and principal', () => {
    const index = new LiteTaskIndex();
    index.remember('', 'alice', '123', 'task-a');
    index.remember('', 'alice', '123', 'task-b');
    index.remember('', 'alice', '123', 'task-a');
    index.remember('t2', 'alice', '123', 'task-c');
    index.remember('', 'bob', '123', 'task-d');
    index.remember('', undefined, '123', 'task-e');
    expect(index.candidates('', 'alice', '123')).toEqual(['task-a', 'task-b']);
    expect(index.candidates('t2', 'alice', '123')).toEqual(['task-c']);
    expect(index.candidates('', 'bob', '123')).toEqual(['task-d']);
    expect(index.candidates('', undefined, '123')).toEqual(['task-e']);
    expect(index.candidates('', 'alice', 'other')).toEqual([]);
  });

  it('does not let another principal reusing a Lite id push the first one’s task out', () => {
    const index = new LiteTaskIndex();
    index.remember('', 'alice', 'r1', 'alice-task');
    for (let i = 0; i < 20; i++) index.remember('', 'bob', 'r1', `bob-task-${i}`);
    expect(index.candidates('', 'alice', 'r1')).toEqual(['alice-task']);
    expect(index.candidates('', 'bob', 'r1')).toHaveLength(8);
  });

  it('bounds the ids, and a principal using many evicts its own oldest', () => {
    const index = new LiteTaskIndex({ maxIds: 4, maxIdsPerPrincipal: 2 });
    index.remember('', 'alice', 'a', 'alice-task');
    for (let i = 0; i < 10; i++) index.remember('', 'bob', `b${i}`, `bob-task-${i}`);
    expect(index.candidates('', 'alice', 'a')).toEqual(['alice-task']);
    expect(index.candidates('', 'bob', 'b7')).toEqual([]);
    expect(index.candidates('', 'bob', 'b9')).toEqual(['bob-task-9']);
    for (const p of ['carol', 'dave', 'erin']) index.remember('', p, 'x', `${p}-task`);
    // Four ids in all: the least recently used went (bob's b8, then alice's a).
    expect(index.candidates('', 'alice', 'a')).toEqual([]);
    expect(index.candidates('', 'erin', 'x')).toEqual(['erin-task']);
  });
});
