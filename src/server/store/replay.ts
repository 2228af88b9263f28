import { recordSchemaOf } from './record-schemas.js';
import type { CollectionName, StoreData } from './collections.js';
import { applyChecked, checkBatch, checkMutation } from './batch.js';
import type { IdIndex, Mutation } from './batch.js';
import { describeIssue } from './snapshot.js';
import { StoreError } from './errors.js';
import { atomicWrite, isCode } from './fs-layer.js';
import type { StoreFs } from './fs-layer.js';
import { JournalCorruptError, headerLine, journalPathOf } from './journal.js';
import { eachGroup, planScan, scanJournal } from './journal-scan.js';
import type { JournalScan } from './journal-scan.js';

/**
 * Replays journal groups over a store's data, in place, one line at a time; a bad group →
 * StoreError naming the journal line. `finish` validates, once, every record the journal
 * wrote, in its final form.
 */
export class Replayer {
  records = 0;
  groups = 0;
  private readonly indexes = new Map<CollectionName, IdIndex>();
  private readonly touched = new Set<string>();

  constructor(
    /** The journal being replayed (named in errors); a restore moves it along a chain of journals. */
    public journalPath: string,
    readonly data: StoreData,
  ) {}

  apply(line: number, writes: unknown[][]): void {
    for (const write of writes) {
      if (!Array.isArray(write) || !write.every(checkMutation)) throw new StoreError(this.journalPath, `line ${line}: not a list of store mutations`);
    }
    const checked = writes as Mutation[][];
    const failure = checkBatch(this.data, this.indexes, checked).values().next().value;
    if (failure) throw new StoreError(this.journalPath, `line ${line}: cannot be replayed over the store (${failure.message})`, { cause: failure });
    applyChecked(this.data, this.indexes, checked);
    for (const write of checked) {
      // Records a remove or clear took need no validation; finish() finds only those still there.
      for (const m of write)
        if (m.op === 'insert' || m.op === 'patch') this.touched.add(`${m.collection}\u0000${m.op === 'insert' ? String(m.record.id) : m.id}`);
      this.records += write.length;
    }
    this.groups++;
  }

  async finish(): Promise<void> {
    const byCollection = new Map<CollectionName, Set<string>>();
    for (const key of this.touched) {
      const [c, id] = key.split('\u0000') as [CollectionName, string];
      if (!byCollection.has(c)) byCollection.set(c, new Set());
      byCollection.get(c)!.add(id);
    }
    for (const [c, ids] of byCollection) {
      // The schemas of the collections the journal wrote only (record-schemas.ts).
      const schema = await recordSchemaOf(c);
      const list = this.data[c] as unknown as Record<string, unknown>[];
      for (let i = 0; i < list.length; i++) {
        const rec = list[i]!;
        if (!ids.has(String(rec.id))) continue;
        const ok = schema.safeParse(rec);
        if (!ok.success)
          throw new StoreError(this.journalPath, `a journaled ${c} record does not validate: ${c}[${i}].${describeIssue(ok.error.issues[0]!, rec)}`);
      }
    }
  }
}

/** Where the journal stands once it is open: what the group commit continues from. */
export interface JournalState {
  /** Length of its whole, valid lines (appends go after it). */
  len: number;
  /** Sequence number of its last group. */
  seq: number;
  /** Mutations and bytes journaled since the snapshot it names (they count toward a fold). */
  records: number;
  bytes: number;
}

/** What a journal beside a snapshot held for it (replayJournal). */
export type JournalReplay =
  | { state: 'missing' }
  /** Its groups after the snapshot's anchor were replayed over the data. */
  | { state: 'replayed'; scan: JournalScan; records: number; bytes: number }
  /** It names another snapshot; `unsaved` groups of it were made after that one. */
  | { state: 'foreign'; scan: JournalScan; unsaved: number };

/**
 * The one journal replay (docs/api-decisions.md §7), for the store's writer (recoverJournal)
 * and for readers without the lock (src/local/read-store.ts): scans the journal, and when it
 * continues the snapshot whose id is `base`, replays its whole groups over `data` in place
 * (a torn last line is never acknowledged, and is skipped) and validates what they wrote.
 * `beforeReplay` runs first when there are groups to replay: a store whose records are
 * validated on first use (collection-checks.ts) validates them all then, over the snapshot as read.
 * A damaged line (JournalCorruptError) or a read error other than ENOENT is thrown as it is.
 */
export async function replayJournal(
  fs: StoreFs,
  journalPath: string,
  data: StoreData,
  base: string,
  beforeReplay?: () => Promise<void> | undefined,
): Promise<JournalReplay> {
  let scan: JournalScan;
  try {
    scan = await scanJournal(fs, journalPath);
  } catch (err) {
    if (isCode(err, 'ENOENT')) return { state: 'missing' };
    throw err;
  }
  const plan = planScan(scan, base);
  if (!plan.matched) return { state: 'foreign', scan, unsaved: plan.unsaved };
  // Groups to replay over the snapshot: its records are validated first, as they were read (Store.open).
  if (plan.toReplay > 0) await beforeReplay?.();
  const r = new Replayer(journalPath, data);
  await eachGroup(fs, journalPath, plan.anchorEnd, scan.goodLength, (g) => {
    r.apply(g.line, g.groups);
    return undefined;
  });
  await r.finish();
  return { state: 'replayed', scan, records: r.records, bytes: scan.goodLength - plan.anchorEnd };
}

/**
 * Opens the journal beside a loaded snapshot (docs/api-decisions.md §7): replays the groups that the
 * snapshot (id `base`) does not hold yet over `data`, in place, and drops a torn last line
 * (never acknowledged). A journal that is missing, or names another snapshot with nothing
 * unsaved, is started afresh with a header naming `base`. A damaged line in the middle, or
 * unsaved groups made after another snapshot → StoreError (the store is not loaded).
 * `beforeReplay` runs before anything is replayed or written to the journal (a first-use
 * store validates every record there: nothing is written beside an invalid snapshot).
 */
export async function recoverJournal(
  fs: StoreFs,
  storePath: string,
  data: StoreData,
  base: string,
  onSync: () => void,
  beforeReplay?: () => Promise<void> | undefined,
): Promise<JournalState> {
  const journalPath = journalPathOf(storePath);
  let replay: JournalReplay;
  try {
    replay = await replayJournal(fs, journalPath, data, base, beforeReplay);
  } catch (err) {
    if (err instanceof StoreError) throw err;
    if (err instanceof JournalCorruptError) {
      throw new StoreError(
        journalPath,
        `line ${err.line}: ${err.reason}; the store cannot be loaded safely (move the journal away to start from ${storePath} alone, losing the writes it holds)`,
        { cause: err },
      );
    }
    throw new StoreError(journalPath, `cannot read (${(err as Error).message})`, { cause: err });
  }
  if (replay.state === 'foreign' && replay.unsaved > 0) {
    throw new StoreError(
      journalPath,
      `holds ${replay.unsaved} acknowledged group commit(s) made after a different version of ${storePath} (the store file was replaced or edited while they were pending); ` +
        `restore the store file cr wrote, or move the journal away to discard them`,
    );
  }
  if (replay.state === 'replayed') {
    const { scan } = replay;
    if (scan.tornBytes > 0) {
      // Drop the torn tail (never acknowledged) so that appends continue after whole lines:
      // a write beside the snapshot, so its records are validated first (first-use validation).
      await beforeReplay?.();
      const fh = await fs.open(journalPath, 'r+');
      try {
        await fh.truncate(scan.goodLength);
        onSync();
        await fh.sync();
      } finally {
        await fh.close();
      }
    }
    return { len: scan.goodLength, seq: scan.lastSeq, records: replay.records, bytes: replay.bytes };
  }
  // Nothing to replay, and no journal or one naming another snapshot: start a new one. That
  // writes beside the snapshot: an invalid store is refused first, whatever its command reads.
  await beforeReplay?.();
  const header = headerLine(base);
  await atomicWrite(fs, journalPath, header, { sync: true, onSync });
  return { len: Buffer.byteLength(header), seq: 0, records: 0, bytes: 0 };
}
