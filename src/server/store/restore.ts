import { dirname, resolve } from 'node:path';
import { resolveStorePath } from './store-path.js';
import { atomicWrite, isCode, nodeFs, syncDir } from './fs-layer.js';
import type { StoreFs } from './fs-layer.js';
import { acquireLock } from './lock.js';
import { headerLine, journalPathOf, snapshotId } from './journal.js';
import { eachGroup, scanJournal } from './journal-scan.js';
import type { JournalScan } from './journal-scan.js';
import { parseStoreBuffer } from './validate-store.js';
import { Replayer } from './replay.js';
import { StoreError } from './errors.js';
import { DEFAULT_BACKUPS, backupJournalPathOf, backupPathOf, newestValidBackup } from './backups.js';

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
  /** The journals whose writes were brought back over the restored snapshot, oldest first. */
  replayed: { path: string; groups: number; records: number }[];
  /** Mutations brought back in all (each acknowledged write is one or more). */
  records: number;
  /** Why the replay ended before the end of the store's journal, when it did. */
  stopped?: string;
  /** The store's journal, when it held writes that could not be carried over: kept here. */
  setAside?: string;
}

const stamp = (d: Date) => d.toISOString().replace(/[:.]/g, '-');

/**
 * The journals that may follow `source`, oldest first: for `<store>.bak.N`, the journals kept
 * with `.bak.N` … `.bak.1` and then the store's own (each continues the previous one); for
 * any other file, its own journal and then the store's.
 */
function journalChain(storePath: string, source: string): string[] {
  for (let g = 1; g <= DEFAULT_BACKUPS + 3; g++) {
    if (source === backupPathOf(storePath, g)) {
      return [...Array.from({ length: g }, (_, i) => backupJournalPathOf(storePath, g - i)), journalPathOf(storePath)];
    }
  }
  return [journalPathOf(source), journalPathOf(storePath)];
}

async function scanOrMissing(fs: StoreFs, path: string): Promise<JournalScan | undefined> {
  try {
    return await scanJournal(fs, path, { untilDamage: true });
  } catch (err) {
    if (isCode(err, 'ENOENT')) return undefined;
    throw new StoreError(path, `cannot read (${(err as Error).message})`, { cause: err });
  }
}

/**
 * `cr local restore` (docs/api-decisions.md §7, §9): brings back the newest valid backup (or `from`,
 * after validating it) atomically, under the store's lock (refused while a server holds the
 * store), with every write acknowledged after it that the journals still hold: the journal
 * kept with each backup, then the store's own, as far as they continue one another and up to
 * the first damaged line. The store file becomes the backup; the store's journal becomes the
 * writes brought back (replayed when the store opens). The replaced file is kept as
 * `<store>.corrupt-<timestamp>`; a store journal whose writes could not all be carried over
 * is kept as `<store>.journal.set-aside-<timestamp>`.
 */
export async function restoreStore(storePath: string, o: RestoreOptions = {}): Promise<RestoreResult> {
  const fs = o.fs ?? nodeFs;
  const path = resolveStorePath(resolve(storePath), fs); // a symlinked store is restored in its target
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
    const data = parseStoreBuffer(source, bytes); // refuses an invalid source, naming it
    const ts = stamp(o.now ?? new Date());

    // Replay the chain in memory first: what is written below is known to load.
    const chain = journalChain(path, source);
    const scans = await Promise.all(chain.map((p) => scanOrMissing(fs, p)));
    const replayer = new Replayer(chain[0]!, data);
    const lines: Buffer[] = [];
    const replayed: RestoreResult['replayed'] = [];
    let reached = snapshotId(bytes);
    let stopped: string | undefined;
    let storeJournalCarried = false;
    for (let i = 0; i < chain.length && !stopped; i++) {
      const jp = chain[i]!;
      const scan = scans[i];
      if (!scan) {
        // A missing journal: the next one may still continue what was reached (it says so below).
        if (i === chain.length - 1) storeJournalCarried = true;
        continue;
      }
      const anchor = scan.marks.findLast((m) => m.base === reached);
      if (!anchor) {
        stopped = `${jp} does not continue ${i === 0 ? source : chain[i - 1]}${i > 0 && !scans[i - 1] ? ' (which is missing)' : ''}`;
        break;
      }
      // Stop this journal where the next one starts (its header names one of our fold lines).
      const nextBase = scans[i + 1]?.marks[0]?.base;
      const stopMark = nextBase === undefined ? undefined : scan.marks.findLast((m) => m.base === nextBase && m.end >= anchor.end);
      const until = stopMark ? stopMark.end : scan.goodLength;
      const before = { groups: replayer.groups, records: replayer.records };
      replayer.journalPath = jp;
      await eachGroup(fs, jp, anchor.end, until, (g) => {
        try {
          replayer.apply(g.line, g.groups);
        } catch (err) {
          stopped = (err as Error).message;
          return false;
        }
        lines.push(g.raw, Buffer.from('\n'));
        return undefined;
      });
      replayed.push({ path: jp, groups: replayer.groups - before.groups, records: replayer.records - before.records });
      if (stopped) break;
      if (scan.damage) stopped = `${jp}: line ${scan.damage.line}: ${scan.damage.reason}`;
      else if (i === chain.length - 1) storeJournalCarried = true;
      else if (!stopMark && scans[i + 1]) stopped = `${chain[i + 1]} does not continue ${jp}`;
      if (stopMark) reached = stopMark.base;
    }
    await replayer.finish();

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
    const journalPath = journalPathOf(path);
    let setAside: string | undefined;
    if (!storeJournalCarried && scans.at(-1) !== undefined) {
      setAside = `${journalPath}.set-aside-${ts}`;
      await fs.rename(journalPath, setAside);
    }
    await atomicWrite(fs, path, bytes, { sync: true });
    await atomicWrite(fs, journalPath, Buffer.concat([Buffer.from(headerLine(snapshotId(bytes))), ...lines]), { sync: true });
    await syncDir(fs, dirname(path));
    return {
      storePath: path,
      restoredFrom: source,
      keptAs,
      replayed,
      records: replayer.records,
      ...(stopped ? { stopped } : {}),
      ...(setAside ? { setAside } : {}),
    };
  } finally {
    release();
  }
}
