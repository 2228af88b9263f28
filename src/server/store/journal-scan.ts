import type { StoreFs } from './fs-layer.js';
import { JournalCorruptError, decodeLine } from './journal.js';
import type { JournalEntry } from './journal.js';

/**
 * The journal read as a stream of lines (docs/api-decisions.md §9: a restart replays the journal
 * whatever its size): never one buffer or string of the whole file. A first pass (scan)
 * keeps only the header and fold lines and counts the groups; a second (eachGroup) decodes
 * and hands over the groups after the anchor one line at a time.
 */

interface RawLine {
  bytes: Buffer;
  line: number;
  /** Byte offset just after the line (its newline included). */
  end: number;
  /** False for a last line without its newline (a write cut short). */
  complete: boolean;
}

/** Calls `fn` for each line of the file, in order; `fn` returning false stops the read. */
async function eachLine(fs: StoreFs, path: string, fn: (l: RawLine) => boolean | undefined): Promise<void> {
  let carry: Buffer[] = [];
  let carryLen = 0;
  let pos = 0;
  let line = 0;
  for await (const chunk of fs.readChunks(path)) {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl === -1) {
        if (start < chunk.length) {
          carry.push(chunk.subarray(start));
          carryLen += chunk.length - start;
        }
        break;
      }
      const piece = chunk.subarray(start, nl);
      const bytes = carryLen > 0 ? Buffer.concat([...carry, piece]) : piece;
      carry = [];
      carryLen = 0;
      pos += bytes.length + 1;
      start = nl + 1;
      if (fn({ bytes, line: ++line, end: pos, complete: true }) === false) return;
    }
  }
  if (carryLen > 0) fn({ bytes: Buffer.concat(carry), line: ++line, end: pos + carryLen, complete: false });
}

/** A header or fold line: a snapshot the journal names, and where the groups after it start. */
export interface JournalMark {
  base: string;
  line: number;
  end: number;
  /** Groups before this line. */
  groupsBefore: number;
}

export interface JournalScan {
  marks: JournalMark[];
  groups: number;
  /** Length of the whole, valid lines; anything after it is a torn tail. */
  goodLength: number;
  tornBytes: number;
  lastSeq: number;
  /** With `untilDamage`: the first damaged line followed by valid ones (the scan stops before it). */
  damage?: { line: number; reason: string };
}

/**
 * First pass: checks every line (checksum, kind) without keeping the groups. A bad line
 * followed by a valid one → JournalCorruptError; a bad last part is a torn tail.
 */
export async function scanJournal(fs: StoreFs, journalPath: string, opts: { untilDamage?: boolean } = {}): Promise<JournalScan> {
  const scan: JournalScan = { marks: [], groups: 0, goodLength: 0, tornBytes: 0, lastSeq: 0 };
  let firstBad: { line: number; reason: string } | undefined;
  let total = 0;
  let first = true;
  await eachLine(fs, journalPath, ({ bytes, line, end, complete }) => {
    if (!scan.damage) total = end;
    const entry: JournalEntry | string = complete ? decodeLine(bytes) : 'incomplete line (no newline)';
    if (typeof entry === 'string') {
      firstBad ??= { line, reason: entry };
      return;
    }
    if (firstBad) {
      if (!opts.untilDamage) throw new JournalCorruptError(journalPath, firstBad.line, `${firstBad.reason}, followed by valid lines`);
      scan.damage = firstBad;
      return false;
    }
    if (first && entry.kind !== 'header') {
      if (!opts.untilDamage) throw new JournalCorruptError(journalPath, line, 'the first line is not a journal header');
      scan.damage = { line, reason: 'the first line is not a journal header' };
      return false;
    }
    first = false;
    if (entry.kind === 'group') scan.groups++;
    else scan.marks.push({ base: entry.base, line, end, groupsBefore: scan.groups });
    if (entry.kind !== 'header') scan.lastSeq = Math.max(scan.lastSeq, entry.seq);
    scan.goodLength = end;
  });
  scan.tornBytes = total - scan.goodLength;
  return scan;
}

/** Which part of a scanned journal continues the snapshot with id `base`. */
export interface ScanPlan {
  /** A header or fold line names the snapshot. */
  matched: boolean;
  /** Offset after that line: the groups to replay follow it (0 when not matched). */
  anchorEnd: number;
  /** Groups after the last header/fold line (in no snapshot the journal names). */
  unsaved: number;
  /** Groups after the anchor. */
  toReplay: number;
}

export function planScan(scan: JournalScan, base: string): ScanPlan {
  const anchor = scan.marks.findLast((m) => m.base === base);
  const last = scan.marks.at(-1);
  return {
    matched: anchor !== undefined,
    anchorEnd: anchor?.end ?? 0,
    unsaved: scan.groups - (last?.groupsBefore ?? 0),
    toReplay: anchor ? scan.groups - anchor.groupsBefore : 0,
  };
}

/** Second pass: each group line after `from` and up to `goodLength`, decoded, in order (`fn` returning false stops). */
export async function eachGroup(
  fs: StoreFs,
  journalPath: string,
  from: number,
  goodLength: number,
  fn: (group: { line: number; seq: number; groups: unknown[][]; raw: Buffer }) => boolean | undefined,
): Promise<void> {
  await eachLine(fs, journalPath, ({ bytes, line, end }) => {
    if (end > goodLength) return false;
    if (end <= from) return;
    const entry = decodeLine(bytes);
    if (typeof entry !== 'string' && entry.kind === 'group') return fn({ line, seq: entry.seq, groups: entry.groups, raw: bytes });
  });
}
