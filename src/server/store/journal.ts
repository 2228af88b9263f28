import { crc32 } from 'node:zlib';
import { safeJsonParse } from '../json.js';

/**
 * The append-only journal beside the store (docs/api-decisions.md §7): `<store>.journal`, one JSON
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

export type JournalEntry = { kind: 'header'; base: string } | { kind: 'group'; seq: number; groups: unknown[][] } | { kind: 'fold'; seq: number; base: string };

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
