/** The A2A-Lite known-agents cache: memory, and the skill's `known-agents/<id>.json` files. */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KnownLiteAgents, LiteTaskIndex } from '../src/a2a-lite/index.js';

const card = {
  protocol: 'a2a-lite/1.0',
  agent: { id: 'jiajia', name: '佳佳', framework: 'clawdbot' as const },
  skills: [{ id: 'research', name: 'Research', description: 'Collects sources' }],
};

describe('KnownLiteAgents', () => {
  it('keeps peers in memory without a directory', async () => {
    const known = new KnownLiteAgents();
    await known.put({ id: 'jiajia', summary: 'I research.', card });
    expect(await known.get('jiajia')).toMatchObject({ id: 'jiajia', summary: 'I research.', card });
    expect(await known.get('nobody')).toBeUndefined();
  });

  it('writes <id>.json into its directory and reads it back after a restart', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'a2a-lite-')), 'known-agents');
    await new KnownLiteAgents(dir).put({ id: 'jiajia', summary: 'I research.', card });
    expect(JSON.parse(readFileSync(join(dir, 'jiajia.json'), 'utf8'))).toMatchObject({ id: 'jiajia', card });
    const restarted = new KnownLiteAgents(dir);
    expect(await restarted.get('jiajia')).toMatchObject({ summary: 'I research.', card });
    // A file that is not a cache entry is no peer.
    writeFileSync(join(dir, 'broken.json'), '{"nope": 1}');
    expect(await restarted.get('broken')).toBeUndefined();
  });

  it('refuses ids that cannot name a file in the directory', async () => {
    expect(KnownLiteAgents.isValidId('../etc')).toBe(false);
    expect(KnownLiteAgents.isValidId('..')).toBe(false);
    expect(KnownLiteAgents.isValidId('a/b')).toBe(false);
    expect(KnownLiteAgents.isValidId('mexico-2.bot_1')).toBe(true);
    await expect(new KnownLiteAgents().put({ id: '../x', summary: '' })).rejects.toThrow('invalid agent id');
    expect(await new KnownLiteAgents('/nonexistent').get('../x')).toBeUndefined();
  });
});

describe('LiteTaskIndex', () => {
  it('lists the tasks of a Lite id newest first, per tenant', () => {
    const index = new LiteTaskIndex();
    index.remember('', '123', 'task-a');
    index.remember('', '123', 'task-b');
    index.remember('', '123', 'task-a');
    index.remember('t2', '123', 'task-c');
    expect(index.candidates('', '123')).toEqual(['task-a', 'task-b']);
    expect(index.candidates('t2', '123')).toEqual(['task-c']);
    expect(index.candidates('', 'other')).toEqual([]);
  });
});
