import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { Store } from '../../src/server/store/store.js';
import { journalPathOf } from '../../src/server/store/journal.js';
import { restoreStore } from '../../src/server/store/restore.js';
import { fixtureStore } from '../server/helpers.js';
import { ensureBuilt, listenerRecord, runBin } from './durability-helpers.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';

/**
 * A restored backup comes back with the writes acknowledged after it (docs/api-decisions.md §9): each
 * fold keeps the journal it replaces beside the backup (`<store>.bak.N.journal`), and
 * `cr local restore` replays the chain of journals up to the first damage, saying what it
 * brought back and from which files.
 */
beforeAll(() => ensureBuilt(), 120_000);
const cleanups = cleanupsAfterAll();

/**
 * Writes `batches`, folding after each but the last, then crashes: the last batch is only in
 * the journal. With three batches: `.bak.2` + its journal hold batch 1, `.bak.1` + its journal
 * batch 2, the store file batches 1–2 and the journal batch 3.
 */
async function storeWithJournals(batches: string[][]) {
  const s = await fixtureStore();
  cleanups.push(s.cleanup);
  const store = await Store.open(s.path);
  for (const [i, batch] of batches.entries()) {
    for (const id of batch) await store.commit([{ op: 'insert', collection: 'content_listeners', record: listenerRecord(id) }]);
    if (i < batches.length - 1) await store.compact();
  }
  await store.abandon();
  return s;
}

const ours = async (path: string) => {
  const store = await Store.open(path);
  try {
    return store
      .list('content_listeners')
      .map((l) => l.id)
      .filter((id) => !id.includes('-'));
  } finally {
    await store.close();
  }
};

describe('cr local restore brings back the writes made after the backup', () => {
  it('a damaged store file: restored from .bak.1 with its journal and the store journal; the CLI says what and from where', async () => {
    const s = await storeWithJournals([['a1'], ['b1', 'b2'], ['c1']]);
    expect(existsSync(`${s.path}.bak.1.journal`)).toBe(true);
    expect(existsSync(`${s.path}.bak.2.journal`)).toBe(true);
    const bak1 = await readFile(`${s.path}.bak.1`);
    await writeFile(s.path, (await readFile(s.path)).subarray(0, 200)); // truncated
    const r = await runBin(['local', 'restore', '--store', s.path], { configDir: s.dir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain(`Restored ${s.path} from ${s.path}.bak.1.`);
    expect(r.stderr).toContain(`Brought back 3 record change(s) acknowledged after the backup, from ${s.path}.bak.1.journal (2), ${s.path}.journal (1)`);
    expect(r.stderr).not.toContain('stopped');
    expect((await readFile(s.path)).equals(bak1)).toBe(true);
    expect(await ours(s.path)).toEqual(['a1', 'b1', 'b2', 'c1']);

    const json = await runBin(['local', 'restore', '--store', s.path, '--json'], { configDir: s.dir });
    expect(json.exitCode, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({ restoredFrom: `${s.path}.bak.1`, records: 3 });
  }, 30_000);

  it('from .bak.2 while .bak.1 itself is damaged: the journals still carry every write', async () => {
    const s = await storeWithJournals([['a1'], ['b1'], ['c1'], ['d1']]);
    await writeFile(s.path, '');
    await writeFile(`${s.path}.bak.1`, Buffer.alloc(64, 0));
    const result = await restoreStore(s.path);
    expect(result.restoredFrom).toBe(`${s.path}.bak.2`);
    expect(result.replayed.map((r) => [r.path, r.records])).toEqual([
      [`${s.path}.bak.2.journal`, 1],
      [`${s.path}.bak.1.journal`, 1],
      [journalPathOf(s.path), 1],
    ]);
    expect(result.stopped).toBeUndefined();
    expect(await ours(s.path)).toEqual(['a1', 'b1', 'c1', 'd1']);
  });

  it('a damaged line in a backup journal: everything up to it comes back, the rest of the chain is kept aside, and the restore says where it stopped', async () => {
    const s = await storeWithJournals([['a1'], ['b1', 'b2', 'b3'], ['c1']]);
    const j1 = `${s.path}.bak.1.journal`;
    const lines = (await readFile(j1, 'utf8')).split('\n');
    // Line 1 is the header, 2–4 the groups of b1, b2, b3: damage b2's.
    lines[2] = lines[2]!.replace('"b2"', '"bX"');
    await writeFile(j1, lines.join('\n'));
    await writeFile(s.path, Buffer.alloc(100, 0));
    const result = await restoreStore(s.path);
    expect(result.stopped).toBe(`${j1}: line 3: checksum mismatch (damaged or partly written)`);
    expect(result.records).toBe(1);
    expect(result.setAside).toMatch(/store\.json\.journal\.set-aside-/);
    expect(await readFile(result.setAside!, 'utf8')).toContain('"c1"');
    expect(await ours(s.path)).toEqual(['a1', 'b1']);
  });

  it('a backup journal copied from another generation applies nothing of it, and the chain stops there', async () => {
    const s = await storeWithJournals([['a1'], ['b1'], ['c1']]);
    await writeFile(`${s.path}.bak.1.journal`, await readFile(`${s.path}.bak.2.journal`));
    await writeFile(s.path, '');
    const result = await restoreStore(s.path);
    // The copy's only line naming .bak.1 is its fold line, at its end: nothing after it to apply.
    expect(result.stopped).toBe(`${s.path}.journal does not continue ${s.path}.bak.1.journal`);
    expect(result.records).toBe(0);
    expect(await readFile(result.setAside!, 'utf8')).toContain('"c1"');
    expect(await ours(s.path)).toEqual(['a1']);
  });
});
