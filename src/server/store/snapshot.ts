import { crc32 } from 'node:zlib';
import type { z } from 'zod';
import { COLLECTION_NAMES } from './collections.js';
import type { StoreData } from './collections.js';
import { hex8 } from './journal.js';
import { StoreError } from './errors.js';
import { safeJsonParse } from '../json.js';

/**
 * The snapshot, the store file itself (docs/api-decisions.md §7, docs/store-format.md): its text
 * (pretty-printed JSON sealed with a crc32 line), and the checks that refuse a damaged one with
 * a message naming the file and what is wrong. Without zod: the records are validated by
 * validate-store.ts (the whole file at once) or collection-checks.ts (one collection at a time).
 */

/** `business_entities[2].owner_id: expected string, got number` */
export function describeIssue(issue: z.core.$ZodIssue, root: unknown): string {
  let path = '';
  let value: unknown = root;
  for (const seg of issue.path) {
    path += typeof seg === 'number' ? `[${seg}]` : path ? `.${String(seg)}` : String(seg);
    value = value && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[seg as PropertyKey] : undefined;
  }
  let message = issue.message;
  if (issue.code === 'invalid_type') {
    const got = value === undefined ? 'nothing (missing)' : value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
    message = `expected ${issue.expected}, got ${got}`;
  } else if (issue.code === 'invalid_value') {
    message = `expected one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(value)}`;
  }
  return `${path || '(top level)'}: ${message}`;
}

/** The object a store file's text holds, not validated yet; StoreError when the text is empty or not JSON. */
export function storeTextObject(storePath: string, text: string): unknown {
  if (text.trim() === '') throw new StoreError(storePath, 'file is empty (expected a JSON object with "version": 1)');
  try {
    return safeJsonParse(text);
  } catch (err) {
    throw new StoreError(storePath, `not valid JSON (${(err as Error).message})`, { cause: err });
  }
}

/**
 * Whether a store file's object has the store's frame: an object, `"version": 1`, and each
 * collection absent or an array. Its records are not looked at.
 */
export function hasStoreFrame(raw: unknown): raw is Record<string, unknown> {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return false;
  const o = raw as Record<string, unknown>;
  return o.version === 1 && COLLECTION_NAMES.every((c) => o[c] === undefined || Array.isArray(o[c]));
}

/**
 * The store's data from a file's object with the store's frame (hasStoreFrame), in place: the
 * raw object is kept, so unknown fields survive a rewrite; the seal is dropped (it is
 * recomputed on every rewrite, so it is not part of the data), and a collection left out is
 * there, empty.
 */
export function storeDataOf(raw: Record<string, unknown>): StoreData {
  delete raw[SEAL_FIELD];
  for (const c of COLLECTION_NAMES) if (raw[c] === undefined) raw[c] = [];
  return raw as StoreData;
}

/**
 * The seal: every snapshot the server writes starts with `"checksum": "crc32:<8 hex>"`, the
 * crc32 of the file without that line. A hand-written store has none and is not checked; a
 * sealed one whose bytes changed (a flipped byte, a lost block) is refused. Whoever edits a
 * sealed file by hand deletes the line (the message says so).
 */
const SEAL_FIELD = 'checksum';
const SEAL_HEAD = `{\n  "${SEAL_FIELD}": "crc32:`;
const SEAL_TAIL = '",\n';
const SEAL_LEN = SEAL_HEAD.length + 8 + SEAL_TAIL.length;
const OPEN = Buffer.from('{\n');
const CRC_OPEN = crc32(OPEN);

type SealCheck = 'none' | 'ok' | { problem: string };

export function checkSeal(bytes: Buffer): SealCheck {
  if (bytes.length < SEAL_LEN + 2) return 'none';
  const head = bytes.subarray(0, SEAL_HEAD.length).toString('latin1');
  const hex = bytes.subarray(SEAL_HEAD.length, SEAL_HEAD.length + 8).toString('latin1');
  const tail = bytes.subarray(SEAL_HEAD.length + 8, SEAL_LEN).toString('latin1');
  if (head === SEAL_HEAD && tail === SEAL_TAIL && /^[0-9a-f]{8}$/.test(hex)) {
    const body = bytes.subarray(SEAL_LEN, bytes[bytes.length - 1] === 0x0a ? bytes.length - 1 : bytes.length);
    const actual = hex8(crc32(body, CRC_OPEN));
    if (actual === hex && bytes[bytes.length - 1] === 0x0a) return 'ok';
    return {
      problem:
        `checksum mismatch (the file says crc32 ${hex}, its content gives ${actual}): it changed after cr wrote it — damaged (a flipped byte, a lost block) or edited by hand` +
        ` (after a deliberate edit, delete its "${SEAL_FIELD}" line)`,
    };
  }
  // One or two damaged bytes in the seal line itself still count as a damaged sealed file.
  const template = SEAL_HEAD + 'xxxxxxxx' + SEAL_TAIL;
  let diff = 0;
  for (let i = 0; i < SEAL_LEN; i++) if (template[i] !== 'x' && bytes[i] !== template.charCodeAt(i)) diff++;
  if (diff > 0 && diff <= 2) return { problem: `its "${SEAL_FIELD}" line (the first one) is damaged` };
  return 'none';
}

/** What is wrong with the bytes of a store file that does not parse, in words. */
function describeUnparsable(bytes: Buffer, err: Error): string {
  let end = bytes.length;
  while (end > 0 && (bytes[end - 1] === 0x20 || bytes[end - 1] === 0x0a || bytes[end - 1] === 0x0d || bytes[end - 1] === 0x09)) end--;
  const truncated = end > 0 && bytes[end - 1] !== 0x7d; // no closing brace
  return truncated
    ? `not valid JSON: it stops after ${bytes.length} bytes before the object is closed (truncated?) (${err.message})`
    : `not valid JSON (${err.message})`;
}

/**
 * The object a store file's bytes hold, its records not validated yet: empty, NUL-filled,
 * truncated, unparsable or a broken seal → StoreError naming the file and the problem.
 */
export function storeBytesObject(storePath: string, bytes: Buffer): unknown {
  if (bytes.length === 0 || bytes.every((b) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09)) {
    throw new StoreError(storePath, `file is empty (${bytes.length} bytes; expected a JSON object with "version": 1)`);
  }
  const firstNul = bytes.indexOf(0);
  if (firstNul !== -1) {
    const nuls = bytes.reduce((n, b) => n + (b === 0 ? 1 : 0), 0);
    throw new StoreError(
      storePath,
      nuls === bytes.length
        ? `file is filled with NUL bytes (${bytes.length} zero bytes, no data: typical of a crash or a disk fault)`
        : `file contains ${nuls} NUL bytes (the first at byte ${firstNul}): damaged`,
    );
  }
  let raw: unknown;
  try {
    raw = safeJsonParse(bytes.toString('utf8'));
  } catch (err) {
    throw new StoreError(storePath, describeUnparsable(bytes, err as Error), { cause: err });
  }
  const seal = checkSeal(bytes);
  if (typeof seal === 'object') throw new StoreError(storePath, seal.problem);
  return raw;
}

/**
 * The bytes of a snapshot: pretty-printed JSON, sealed with the crc32 of the rest of the file
 * in a first `"checksum"` line (see checkSeal).
 *
 * Built in one buffer: the JSON is encoded once, straight after the room left for the seal
 * line (its opening `{\n` falls where the seal line goes), the crc32 runs over those bytes,
 * and the seal line is written over the front. Making the text, slicing it, sealing the
 * string and encoding it again took about twice the CPU of a fold (writes/s with 50 writers).
 */
export function sealedSnapshot(data: StoreData): Buffer {
  const { [SEAL_FIELD]: _seal, ...rest } = data as Record<string, unknown>;
  const text = JSON.stringify(rest, null, 2);
  const textBytes = Buffer.byteLength(text);
  const out = Buffer.allocUnsafe(SEAL_LEN - OPEN.length + textBytes + 1);
  out.write(text, SEAL_LEN - OPEN.length, 'utf8');
  const seal = hex8(crc32(out.subarray(SEAL_LEN, out.length - 1), CRC_OPEN));
  out.write(`${SEAL_HEAD}${seal}${SEAL_TAIL}`, 0, 'latin1');
  out[out.length - 1] = 0x0a;
  return out;
}

/** The text of a snapshot (see sealedSnapshot). */
export function serialize(data: StoreData): string {
  return sealedSnapshot(data).toString('utf8');
}
