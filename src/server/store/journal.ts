import { crc32 } from 'node:zlib';
import { safeJsonParse } from '../json.js';

/**
 * The append-only journal beside the store (decisions.md §7): `<store>.journal`, one JSON
 * document per line, each line prefixed with the crc32 of its JSON text:
 *
 *     <crc32, 8 lowercase hex> <json>\n
 *
 * Line kinds:
 * - header  `{"journal":1,"base":"<snapshot id>"}`: the first line; the snapshot it applies to.
 * - group   `{"seq":n,"g":[[mutation…],[mutation…]…]}`: one group commit (one append + one
 *           fsync); each inner array is one acknowledged write, applied as a unit.
 * - fold    `{"seq":n,"fold":"<snapshot id>"}`: a snapshot holding every group before this
 *           line is about to replace the store file. Written (and fsynced) before the rename,
 *           so that after a crash between the rename and the journal reset the replay starts
 *           here rather than applying the folded groups twice.
 *
 * A snapshot id is `<byte length>:<crc32 of the bytes>` of the store file.
 */
export const JOURNAL_VERSION = 1;

export const journalPathOf = (storePath: string) => `${storePath}.journal`;

export const snapshotId = (bytes: Uint8Array) => `${bytes.length}:${hex8(crc32(bytes))}`;

export const hex8 = (n: number) => (n >>> 0).toString(16).padStart(8, '0');

export type JournalEntry =
  | { kind: 'header'; base: string }
  | { kind: 'group'; seq: number; groups: unknown[][] }
  | { kind: 'fold'; seq: number; base: string };

/** One line, with its checksum and the terminating newline. */
export function encodeLine(doc: object): string {
  const json = JSON.stringify(doc);
  return `${hex8(crc32(json))} ${json}\n`;
}

export const headerLine = (base: string) => encodeLine({ journal: JOURNAL_VERSION, base });
export const foldLine = (seq: number, base: string) => encodeLine({ seq, fold: base });
export const groupLine = (seq: number, groups: unknown[][]) => encodeLine({ seq, g: groups });

/**
 * The same line as groupLine, from each write's JSON text already made (the group commit
 * measures every write before it takes it, and stringifies it only once).
 */
export function groupLineOf(seq: number, writesJson: readonly string[]): string {
  const json = `{"seq":${seq},"g":[${writesJson.join(',')}]}`;
  return `${hex8(crc32(json))} ${json}\n`;
}

/** Why a line is not a valid journal line, or its entry. */
export function decodeLine(line: Buffer): JournalEntry | string {
  if (line.length < 10 || line[8] !== 0x20) return 'not a journal line (expected "<crc32> <json>")';
  const want = line.subarray(0, 8).toString('latin1');
  if (!/^[0-9a-f]{8}$/.test(want)) return 'not a journal line (expected "<crc32> <json>")';
  const body = line.subarray(9);
  if (hex8(crc32(body)) !== want) return 'checksum mismatch (damaged or partly written)';
  let doc: unknown;
  try {
    doc = safeJsonParse(body.toString('utf8'));
  } catch {
    return 'checksum matches but the JSON does not parse';
  }
  const d = doc as Record<string, unknown>;
  if (d && typeof d === 'object') {
    if (d.journal === JOURNAL_VERSION && typeof d.base === 'string') return { kind: 'header', base: d.base };
    if (typeof d.seq === 'number' && typeof d.fold === 'string') return { kind: 'fold', seq: d.seq, base: d.fold };
    if (typeof d.seq === 'number' && Array.isArray(d.g) && d.g.every(Array.isArray)) return { kind: 'group', seq: d.seq, groups: d.g as unknown[][] };
    if (typeof d.journal === 'number') return `journal format version ${String(d.journal)} is not supported (expected ${JOURNAL_VERSION})`;
  }
  return 'unknown kind of line';
}

export interface ParsedJournal {
  entries: { entry: JournalEntry; line: number; end: number }[];
  /** Length of the whole, valid lines; anything after it is a torn tail. */
  goodLength: number;
  /** Bytes after goodLength (a write cut short by a crash). */
  tornBytes: number;
}

/** A journal line that is damaged while later lines are whole: refusing is the only safe choice. */
export class JournalCorruptError extends Error {
  constructor(
    readonly journalPath: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(`${journalPath}: line ${line}: ${reason}`);
    this.name = 'JournalCorruptError';
  }
}

/**
 * Parses a journal. Only whole lines with a valid checksum count. The last line may be torn
 * (a crash during the append, which was never acknowledged): it is reported as `tornBytes`
 * and ignored. A bad line followed by a valid one is corruption: JournalCorruptError.
 */
export function parseJournal(journalPath: string, bytes: Buffer): ParsedJournal {
  const entries: ParsedJournal['entries'] = [];
  let pos = 0;
  let lineNo = 0;
  let goodLength = 0;
  let firstBad: { line: number; reason: string } | undefined;
  while (pos < bytes.length) {
    lineNo++;
    const nl = bytes.indexOf(0x0a, pos);
    const end = nl === -1 ? bytes.length : nl + 1;
    const line = bytes.subarray(pos, nl === -1 ? bytes.length : nl);
    const decoded = nl === -1 ? 'incomplete line (no newline)' : decodeLine(line);
    if (typeof decoded === 'string') {
      firstBad ??= { line: lineNo, reason: decoded };
    } else {
      if (firstBad) throw new JournalCorruptError(journalPath, firstBad.line, `${firstBad.reason}, followed by valid lines`);
      entries.push({ entry: decoded, line: lineNo, end });
      goodLength = end;
    }
    pos = end;
  }
  if (entries.length > 0 && entries[0]!.entry.kind !== 'header') throw new JournalCorruptError(journalPath, entries[0]!.line, 'the first line is not a journal header');
  return { entries, goodLength, tornBytes: bytes.length - goodLength };
}

export interface ReplayPlan {
  /** The groups to apply on top of the snapshot, with their line numbers. */
  groups: { line: number; seq: number; groups: unknown[][] }[];
  /** Groups after the last header/fold line (not in any snapshot the journal names). */
  unsaved: number;
  /** The snapshot matched a header or fold line. */
  matched: boolean;
  /** Byte offset just after that line (the groups to replay follow it). */
  anchorEnd: number;
  lastSeq: number;
}

/**
 * Which groups to replay over the snapshot with id `base`: those after the last header or
 * fold line naming it. No such line: `matched` false (the caller decides; it is harmless
 * only when there are no unsaved groups).
 */
export function planReplay(parsed: ParsedJournal, base: string): ReplayPlan {
  let anchor = -1;
  let lastMark = -1;
  let lastSeq = 0;
  parsed.entries.forEach(({ entry }, i) => {
    if (entry.kind !== 'group') {
      lastMark = i;
      if (entry.base === base) anchor = i;
    }
    if (entry.kind !== 'header') lastSeq = Math.max(lastSeq, entry.seq);
  });
  const after = (from: number) =>
    parsed.entries.slice(from + 1).flatMap(({ entry, line }) => (entry.kind === 'group' ? [{ line, seq: entry.seq, groups: entry.groups }] : []));
  const unsaved = lastMark === -1 ? after(-1).length : after(lastMark).length;
  return {
    groups: anchor === -1 ? [] : after(anchor),
    unsaved,
    matched: anchor !== -1,
    anchorEnd: anchor === -1 ? 0 : parsed.entries[anchor]!.end,
    lastSeq,
  };
}
