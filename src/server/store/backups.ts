import { basename, dirname, join, resolve } from 'node:path';
import { atomicWrite, isCode, nodeFs, syncDir } from './fs-layer.js';
import type { StoreFs } from './fs-layer.js';
import { acquireLock } from './lock.js';
import { resolveStorePath } from './store-path.js';
import { JournalCorruptError, journalPathOf, parseJournal, planReplay, snapshotId } from './journal.js';
import { parseStoreBuffer } from './snapshot.js';
import { StoreError } from './errors.js';

/**
 * Backups of the snapshot (decisions.md §7): `<store>.bak.1` (newest) … `.bak.N`, kept as
 * each fold replaces the store file, and `cr local restore`, which brings one back.
 */

export const backupPathOf = (storePath: string, generation: number) => `${storePath}.bak.${generation}`;

/** Default number of previous snapshots kept (`<store>.bak.1` newest … `.bak.N`). */
export const DEFAULT_BACKUPS = 2;

/** The newest backup that loads, if any. */
export async function newestValidBackup(storePath: string, fs: StoreFs = nodeFs, generations = DEFAULT_BACKUPS + 3): Promise<string | undefined> {
  for (let g = 1; g <= generations; g++) {
    const p = backupPathOf(storePath, g);
    try {
      parseStoreBuffer(p, await fs.readFile(p));
      return p;
    } catch {
      /* missing or invalid: try the next one */
    }
  }
  return undefined;
}

/** `…; newest valid backup: X (restore with: …)` for a refused store file. */
export async function withBackupHint(err: StoreError, storePath: string, fs: StoreFs): Promise<StoreError> {
  const bak = await newestValidBackup(storePath, fs);
  const restore = `cr local restore --store ${storePath}`;
  const hint = bak ? `; newest valid backup: ${bak} (restore with: ${restore})` : `; no valid backup found (${backupPathOf(storePath, 1)}, ${backupPathOf(storePath, 2)})`;
  return new StoreError(err.storePath, err.detail + hint, { cause: err.cause ?? err });
}

/**
 * Keeps the snapshot about to be replaced: `.bak.1` → `.bak.2` …, then a hard link of the
 * store as `.bak.1` (a copy where links are not supported). Best effort: a backup that
 * cannot be made never blocks a commit. The caller fsyncs the folder afterwards.
 */
export async function rotateBackups(fs: StoreFs, storePath: string, keep: number): Promise<void> {
  if (keep < 1) return;
  for (let g = keep - 1; g >= 1; g--) {
    await fs.rename(backupPathOf(storePath, g), backupPathOf(storePath, g + 1)).catch(() => undefined);
  }
  const first = backupPathOf(storePath, 1);
  await fs.unlink(first).catch(() => undefined);
  try {
    await fs.link(storePath, first);
  } catch (err) {
    if (isCode(err, 'ENOENT')) return;
    const bytes = await fs.readFile(storePath).catch(() => undefined);
    if (bytes) await atomicWrite(fs, first, bytes, { sync: false }).catch(() => undefined);
  }
}

/** Temp files of commits or folds cut short by a crash (we hold the lock: nobody else writes them). */
export async function removeStaleTemps(fs: StoreFs, storePath: string): Promise<void> {
  const base = basename(storePath).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^\\.${base}(\\.journal)?\\.\\d+\\.\\d+\\.tmp$`);
  const dir = dirname(storePath);
  const names = await fs.readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => pattern.test(n)).map((n) => fs.unlink(join(dir, n)).catch(() => undefined)));
}

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
  const path = resolveStorePath(storePath, fs); // a symlinked store is restored in its target
  const release = acquireLock(path, fs);
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
