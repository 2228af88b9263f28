import { COLLECTIONS } from './schema.js';
import type { CollectionName, StoreData } from './schema.js';
import { applyChecked, checkBatch, checkMutation } from './batch.js';
import type { IdIndex, Mutation } from './batch.js';
import { describeIssue } from './snapshot.js';
import { StoreError } from './errors.js';
import { atomicWrite, isCode } from './fs-layer.js';
import type { StoreFs } from './fs-layer.js';
import { JournalCorruptError, headerLine, journalPathOf, parseJournal, planReplay } from './journal.js';
import type { ReplayPlan } from './journal.js';

/** Replays the planned groups over `data` (in place); a bad group → StoreError naming the journal line. */
export function replay(journalPath: string, data: StoreData, groups: ReplayPlan['groups']): { data: StoreData; records: number } {
  const state = data;
  let records = 0;
  const indexes = new Map<CollectionName, IdIndex>();
  // Records written by the journal, validated once in their final form.
  const touched = new Set<string>();
  for (const { line, groups: writes } of groups) {
    for (const write of writes) {
      if (!Array.isArray(write) || !write.every(checkMutation)) throw new StoreError(journalPath, `line ${line}: not a list of store mutations`);
    }
    const checked = writes as Mutation[][];
    const failure = checkBatch(state, indexes, checked).values().next().value;
    if (failure) throw new StoreError(journalPath, `line ${line}: cannot be replayed over the store (${failure.message})`, { cause: failure });
    applyChecked(state, indexes, checked);
    for (const write of checked) {
      for (const m of write) touched.add(`${m.collection}\u0000${m.op === 'insert' ? String(m.record.id) : m.id}`);
      records += write.length;
    }
  }
  const byCollection = new Map<CollectionName, Set<string>>();
  for (const key of touched) {
    const [c, id] = key.split('\u0000') as [CollectionName, string];
    if (!byCollection.has(c)) byCollection.set(c, new Set());
    byCollection.get(c)!.add(id);
  }
  for (const [c, ids] of byCollection) {
    const list = state[c] as unknown as Record<string, unknown>[];
    for (let i = 0; i < list.length; i++) {
      const rec = list[i]!;
      if (!ids.has(String(rec.id))) continue;
      const ok = COLLECTIONS[c].safeParse(rec);
      if (!ok.success) throw new StoreError(journalPath, `a journaled ${c} record does not validate: ${c}[${i}].${describeIssue(ok.error.issues[0]!, rec)}`);
    }
  }
  return { data: state, records };
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

/**
 * Opens the journal beside a loaded snapshot (decisions.md §7): replays the groups that the
 * snapshot (id `base`) does not hold yet over `data`, in place, and drops a torn last line
 * (never acknowledged). A journal that is missing, or names another snapshot with nothing
 * unsaved, is started afresh with a header naming `base`. A damaged line in the middle, or
 * unsaved groups made after another snapshot → StoreError (the store is not loaded).
 */
export async function recoverJournal(fs: StoreFs, storePath: string, data: StoreData, base: string, onSync: () => void): Promise<JournalState> {
  const journalPath = journalPathOf(storePath);
  let jbytes: Buffer | undefined;
  try {
    jbytes = await fs.readFile(journalPath);
  } catch (err) {
    if (!isCode(err, 'ENOENT')) throw new StoreError(journalPath, `cannot read (${(err as Error).message})`, { cause: err });
  }
  if (jbytes !== undefined) {
    let parsed;
    try {
      parsed = parseJournal(journalPath, jbytes);
    } catch (err) {
      if (err instanceof JournalCorruptError) {
        throw new StoreError(journalPath, `line ${err.line}: ${err.reason}; the store cannot be loaded safely (move the journal away to start from ${storePath} alone, losing the writes it holds)`, { cause: err });
      }
      throw err;
    }
    const plan = planReplay(parsed, base);
    if (!plan.matched && plan.unsaved > 0) {
      throw new StoreError(
        journalPath,
        `holds ${plan.unsaved} acknowledged group commit(s) made after a different version of ${storePath} (the store file was replaced or edited while they were pending); ` +
          `restore the store file cr wrote, or move the journal away to discard them`,
      );
    }
    if (plan.matched) {
      const r = replay(journalPath, data, plan.groups);
      if (parsed.tornBytes > 0) {
        // Drop the torn tail (never acknowledged) so that appends continue after whole lines.
        const fh = await fs.open(journalPath, 'r+');
        try {
          await fh.truncate(parsed.goodLength);
          onSync();
          await fh.sync();
        } finally {
          await fh.close();
        }
      }
      return { len: parsed.goodLength, seq: plan.lastSeq, records: r.records, bytes: parsed.goodLength - plan.anchorEnd };
    }
  }
  // Nothing to replay, and no journal or one naming another snapshot: start a new one.
  const header = headerLine(base);
  await atomicWrite(fs, journalPath, header, { sync: true, onSync });
  return { len: Buffer.byteLength(header), seq: 0, records: 0, bytes: 0 };
}
