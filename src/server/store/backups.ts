import { basename, dirname, join } from 'node:path';
import { atomicWrite, isCode, nodeFs } from './fs-layer.js';
import type { StoreFs } from './fs-layer.js';
import { journalPathOf } from './journal.js';
import { StoreError } from './errors.js';

/**
 * Backups of the snapshot (docs/api-decisions.md §7): `<store>.bak.1` (newest) … `.bak.N`, kept as
 * each fold replaces the store file, each with the journal that follows it (restore.ts
 * brings them back).
 */

export const backupPathOf = (storePath: string, generation: number) => `${storePath}.bak.${generation}`;

/**
 * The journal kept with a backup (docs/api-decisions.md §9): the store's journal as it was when that
 * snapshot was replaced, i.e. the writes made after the backup. A restore replays it.
 */
export const backupJournalPathOf = (storePath: string, generation: number) => journalPathOf(backupPathOf(storePath, generation));

/** Default number of previous snapshots kept (`<store>.bak.1` newest … `.bak.N`). */
export const DEFAULT_BACKUPS = 2;

/** The newest backup that loads, if any (each checked whole: validate-store.ts, loaded only for this). */
export async function newestValidBackup(storePath: string, fs: StoreFs = nodeFs, generations = DEFAULT_BACKUPS + 3): Promise<string | undefined> {
  const { parseStoreBuffer } = await import('./validate-store.js');
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
  const hint = bak
    ? `; newest valid backup: ${bak} (restore with: ${restore})`
    : `; no valid backup found (${backupPathOf(storePath, 1)}, ${backupPathOf(storePath, 2)})`;
  return new StoreError(err.storePath, err.detail + hint, { cause: err.cause ?? err });
}

/**
 * Keeps the snapshot about to be replaced, with its journal: `.bak.1` → `.bak.2` … (and
 * `.bak.N.journal` alike), then hard links of the store as `.bak.1` and of the journal as
 * `.bak.1.journal` (copies where links are not supported). Best effort: a backup that cannot
 * be made never blocks a commit. The caller fsyncs the folder afterwards.
 */
export async function rotateBackups(fs: StoreFs, storePath: string, keep: number): Promise<void> {
  if (keep < 1) return;
  for (let g = keep - 1; g >= 1; g--) {
    await fs.rename(backupPathOf(storePath, g), backupPathOf(storePath, g + 1)).catch(() => undefined);
    // A backup without its journal must not inherit the journal of the one it replaces.
    await fs
      .rename(backupJournalPathOf(storePath, g), backupJournalPathOf(storePath, g + 1))
      .catch(() => fs.unlink(backupJournalPathOf(storePath, g + 1)).catch(() => undefined));
  }
  await keepAs(fs, storePath, backupPathOf(storePath, 1));
  await keepAs(fs, journalPathOf(storePath), backupJournalPathOf(storePath, 1));
}

/** `to` becomes a hard link to `from` (a copy where links fail; nothing when `from` is missing). */
async function keepAs(fs: StoreFs, from: string, to: string): Promise<void> {
  await fs.unlink(to).catch(() => undefined);
  try {
    await fs.link(from, to);
  } catch (err) {
    if (isCode(err, 'ENOENT')) return;
    const bytes = await fs.readFile(from).catch(() => undefined);
    if (bytes) await atomicWrite(fs, to, bytes, { sync: false }).catch(() => undefined);
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
