import { resolve } from 'node:path';
import { dirname } from 'node:path';
import { atomicWrite, isCode, nodeFs, syncDir } from './fs-layer.js';
import type { StoreFs } from './fs-layer.js';
import { acquireLock } from './lock.js';
import { JournalCorruptError, journalPathOf, parseJournal, planReplay, snapshotId } from './journal.js';
import { StoreError, newestValidBackup, parseStoreBuffer } from './store.js';

export interface RestoreOptions {
  /** The file to restore (validated first); default: the newest valid `<store>.bak.N`. */
  from?: string;
  fs?: StoreFs;
  now?: Date;
}

export interface RestoreResult {
  storePath: string;
  restoredFrom: string;
  /** Where the replaced store file was kept (`<store>.corrupt-<timestamp>`), if there was one. */
  keptAs: string | null;
  /** What happened to the journal: kept (it continues the restored snapshot), set aside, or none. */
  journal: { action: 'kept' | 'set-aside' | 'removed' | 'none'; path?: string; unsavedGroups?: number };
}

const stamp = (d: Date) => d.toISOString().replace(/[:.]/g, '-');

/**
 * `cr local restore`: brings back the newest valid backup (or `from`, after validating it)
 * atomically, under the store's lock (refused while a server holds the store). The replaced
 * file is kept as `<store>.corrupt-<timestamp>`; a journal that belongs to another snapshot
 * is set aside as `<store>.journal.set-aside-<timestamp>` (its writes are not applied).
 */
export async function restoreStore(storePath: string, o: RestoreOptions = {}): Promise<RestoreResult> {
  const fs = o.fs ?? nodeFs;
  const path = resolve(storePath);
  const release = acquireLock(path);
  try {
    const source = o.from ? resolve(o.from) : await newestValidBackup(path, fs);
    if (!source) {
      throw new StoreError(path, `no valid backup to restore (looked for ${path}.bak.1, ${path}.bak.2 …); pass --from FILE to restore another copy`);
    }
    if (source === path) throw new StoreError(path, '--from names the store file itself');
    let bytes: Buffer;
    try {
      bytes = await fs.readFile(source);
    } catch (err) {
      throw new StoreError(source, `cannot read (${(err as Error).message})`, { cause: err });
    }
    parseStoreBuffer(source, bytes); // refuses an invalid source, naming it
    const ts = stamp(o.now ?? new Date());

    let keptAs: string | null = `${path}.corrupt-${ts}`;
    try {
      await fs.link(path, keptAs);
    } catch (err) {
      if (isCode(err, 'ENOENT')) keptAs = null;
      else {
        const old = await fs.readFile(path).catch(() => undefined);
        if (old === undefined) keptAs = null;
        else await atomicWrite(fs, keptAs, old, { sync: true });
      }
    }
    await atomicWrite(fs, path, bytes, { sync: true });

    const journalPath = journalPathOf(path);
    let journal: RestoreResult['journal'] = { action: 'none' };
    let jbytes: Buffer | undefined;
    try {
      jbytes = await fs.readFile(journalPath);
    } catch (err) {
      if (!isCode(err, 'ENOENT')) throw err;
    }
    if (jbytes !== undefined) {
      let unsaved = -1;
      let matched = false;
      try {
        const plan = planReplay(parseJournal(journalPath, jbytes), snapshotId(bytes));
        unsaved = plan.unsaved;
        matched = plan.matched;
      } catch (err) {
        if (!(err instanceof JournalCorruptError)) throw err;
      }
      if (matched) journal = { action: 'kept', path: journalPath };
      else if (unsaved === 0) {
        await fs.unlink(journalPath);
        journal = { action: 'removed' };
      } else {
        const aside = `${journalPath}.set-aside-${ts}`;
        await fs.rename(journalPath, aside);
        journal = { action: 'set-aside', path: aside, unsavedGroups: unsaved < 0 ? undefined : unsaved };
      }
      await syncDir(fs, dirname(path));
    }
    return { storePath: path, restoredFrom: source, keptAs, journal };
  } finally {
    release();
  }
}
