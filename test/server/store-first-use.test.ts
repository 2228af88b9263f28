import { afterEach, describe, expect, it } from 'vitest';
import { readFile, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { Store, StoreError } from '../../src/server/store/store.js';
import { openStore } from '../../src/server/store/open-store.js';
import { groupLine, headerLine, journalPathOf, snapshotId } from '../../src/server/store/journal.js';
import { FIXTURE, fixtureStore } from './helpers.js';

/**
 * A store whose records are validated one collection at a time, the first time each is used
 * (`validation: 'first-use'`, what --local opens: docs/store-format.md "Rules"). It is held to
 * what a whole-file check at open promises: a bad record refuses the store with the same
 * StoreError, whichever collection is used first, and nothing is written over an invalid file.
 * The command-level side: test/commands/local/first-use-validation.test.ts.
 */

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (cleanups.length) await cleanups.pop()!();
});

type Doc = Record<string, Record<string, unknown>[]>;

/**
 * The fixture store with some records changed (no seal), and a journal that names it: a file
 * cr wrote last, which went bad since. A file the journal does not name (edited by hand,
 * replaced) is validated whole before anything is written beside it: the last test.
 */
async function brokenStore(edit: (doc: Doc) => void, journalNamesIt = true) {
  const doc = JSON.parse(readFileSync(FIXTURE, 'utf8')) as Doc;
  edit(doc);
  const text = JSON.stringify(doc, null, 2);
  const s = await fixtureStore(text);
  if (journalNamesIt) await writeFile(journalPathOf(s.path), headerLine(snapshotId(Buffer.from(text))));
  cleanups.push(s.cleanup);
  return s;
}

/** What opening the file whole says of it (Store.open's default), the message to expect. */
async function refusalAtOpen(path: string): Promise<string> {
  const err = await Store.open(path).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(StoreError);
  return (err as Error).message;
}

const FIRST_USE = { file: { validation: 'first-use' } } as const;

async function openFirstUse(path: string) {
  const store = await openStore(path, FIRST_USE);
  cleanups.push(() => store.close().catch(() => undefined));
  return store;
}

const OWNER = 'aaaaaaaa-0000-4000-8000-000000000001';

describe('records validated on first use', () => {
  it('a bad record in a collection a read uses: that read is refused with the StoreError opening the file gives; the other collections read', async () => {
    const { path } = await brokenStore((d) => (d.crm_agents![0]!.name = 7));
    const expected = await refusalAtOpen(path);
    expect(expected).toMatch(/store\.json: crm_agents\[0\]\.name: expected string, got number; (newest valid backup|no valid backup)/);

    const store = await openFirstUse(path);
    const rows = await store.financeRows(OWNER);
    expect(rows.entities.length).toBeGreaterThan(0);
    const refused = await Promise.resolve()
      .then(() => store.crmAgents(new Set(['w'])))
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(StoreError);
    expect((refused as Error).message).toBe(expected);
    // and every later use alike
    const again = await Promise.resolve()
      .then(() => store.crmAgents(new Set(['w'])))
      .catch((e: unknown) => e);
    expect((again as Error).message).toBe(expected);
  });

  it('a write, whichever its collection, first validates every collection: refused, and the file and its journal are left as they were', async () => {
    const { path } = await brokenStore((d) => (d.learnings![3]!.confidenceScore = 'high'));
    const expected = await refusalAtOpen(path);
    const before = await readFile(path);
    const store = await openFirstUse(path);
    const journal = await readFile(journalPathOf(path));
    const err = await store.commit([{ op: 'insert', collection: 'users', record: { id: 'u-new', email: 'n@example.com', name: 'N' } }]).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as Error).message).toBe(expected);
    await store.close();
    expect((await readFile(path)).equals(before)).toBe(true);
    expect((await readFile(journalPathOf(path))).equals(journal)).toBe(true);
  });

  it('two bad records in two collections: the one used first is refused with the whole file’s first bad path and the count of the others', async () => {
    const { path } = await brokenStore((d) => {
      d.learnings![0]!.websiteId = null as never;
      d.crm_agents![1]!.promptVersions = 'none' as never;
    });
    const expected = await refusalAtOpen(path);
    expect(expected).toMatch(/learnings\[0\]\.websiteId: expected string, got null \(and 1 more\)/);
    const store = await openFirstUse(path);
    const err = await Promise.resolve()
      .then(() => store.crmAgents(new Set(['w'])))
      .catch((e: unknown) => e);
    expect((err as Error).message).toBe(expected);
  });

  it.each([
    ['wrong version', { version: 2 }],
    ['a collection that is no array', { version: 1, learnings: {} }],
    ['not an object', [1, 2]],
  ])('%s: refused at open, as a whole-file check refuses it', async (_name, doc) => {
    const s = await fixtureStore(JSON.stringify(doc));
    cleanups.push(s.cleanup);
    const expected = await refusalAtOpen(s.path);
    const err = await openStore(s.path, FIRST_USE).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as Error).message).toBe(expected);
  });

  it('a journal with writes to replay: the snapshot is validated whole first, even when a journaled write would mend the bad record', async () => {
    const { path } = await brokenStore((d) => (d.crm_agents![0]!.name = 7));
    const expected = await refusalAtOpen(path);
    const id = (JSON.parse(await readFile(path, 'utf8')) as Doc).crm_agents![0]!.id;
    const mend = [[{ op: 'patch', collection: 'crm_agents', id, patch: { name: 'Mended' } }]];
    await writeFile(journalPathOf(path), headerLine(snapshotId(await readFile(path))) + groupLine(1, mend));
    const err = await openStore(path, FIRST_USE).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StoreError);
    expect((err as Error).message).toBe(expected);
  });

  it('a valid store opens, reads and writes as one validated at open', async () => {
    const { path, cleanup } = await fixtureStore();
    cleanups.push(cleanup);
    const store = await openFirstUse(path);
    await store.commit([{ op: 'insert', collection: 'users', record: { id: 'u-new', email: 'n@example.com', name: 'N' } }]);
    expect(await store.user('u-new')).toMatchObject({ name: 'N' });
    await store.close();
    const reopened = await Store.open(path);
    expect(reopened.get('users', 'u-new')).toMatchObject({ name: 'N' });
    await reopened.close();
  });

  it('a file the journal does not name (edited by hand, or no journal): validated whole at open, and nothing is written beside it', async () => {
    for (const journal of ['none', 'another snapshot'] as const) {
      const { path } = await brokenStore((d) => (d.crm_agents![0]!.name = 7), false);
      if (journal === 'another snapshot') await writeFile(journalPathOf(path), headerLine('1:00000000'));
      const before = journal === 'none' ? undefined : await readFile(journalPathOf(path));
      const expected = await refusalAtOpen(path);
      const err = await openStore(path, FIRST_USE).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(StoreError);
      expect((err as Error).message).toBe(expected);
      const after = await readFile(journalPathOf(path)).catch(() => undefined);
      expect(after, journal).toEqual(before);
    }
  });
});
