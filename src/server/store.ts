import { readdir, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { crc32 } from 'node:zlib';
import type { z } from 'zod';
import { COLLECTIONS, COLLECTION_NAMES, StoreFile, emptyStore } from './store-schema.js';
import type { CollectionName, RecordOf, StoreData } from './store-schema.js';
import { atomicWrite, isCode, nodeFs, syncDir, tempPathOf, writeTemp } from './fs-layer.js';
import type { FileHandleLike, StoreFs } from './fs-layer.js';
import { JournalCorruptError, foldLine, groupLine, headerLine, hex8, journalPathOf, parseJournal, planReplay, snapshotId } from './journal.js';
import type { ReplayPlan } from './journal.js';
import { acquireLock } from './lock.js';
import { safeJsonParse } from './json.js';

export { StoreLockedError } from './lock.js';

/** The store file cannot be used: empty, corrupt or invalid. It is never overwritten. */
export class StoreError extends Error {
  readonly code = 'STORE_INVALID';
  constructor(
    readonly storePath: string,
    readonly detail: string,
    options?: { cause?: unknown },
  ) {
    super(`${storePath}: ${detail}`, options);
    this.name = 'StoreError';
  }
}

/** A commit failed (ENOSPC, EIO…); nothing was acknowledged and memory rolled back. The app answers 503. */
export class StoreUnavailableError extends Error {
  readonly code = 'STORE_UNAVAILABLE';
  constructor(options?: { cause?: unknown }) {
    super('Store unavailable', options);
    this.name = 'StoreUnavailableError';
  }
}

/**
 * A change to the store, as data: applying it is pure and separate from persistence, so an
 * append-only journal could record the same mutations and replay them at start.
 */
export type Mutation =
  | { op: 'insert'; collection: CollectionName; record: Record<string, unknown> }
  | { op: 'patch'; collection: CollectionName; id: string; patch: Record<string, unknown> };

type IdIndex = Map<string, number>;

/**
 * Checks a group commit's writes against `state` without changing anything: which writes
 * cannot apply (a patch of a record that neither exists nor is inserted by an earlier
 * write of the batch). Each write is atomic: a failing write's own inserts do not count
 * for the writes after it.
 */
export function checkBatch(state: StoreData, indexes: Map<CollectionName, IdIndex>, writes: readonly (readonly Mutation[])[]): Map<number, Error> {
  const failures = new Map<number, Error>();
  const added = new Set<string>();
  writes.forEach((mutations, w) => {
    const mine: string[] = [];
    for (const m of mutations) {
      if (m.op === 'insert') {
        if (typeof m.record.id === 'string') mine.push(`${m.collection}\u0000${m.record.id}`);
        continue;
      }
      const key = `${m.collection}\u0000${m.id}`;
      if (added.has(key) || mine.includes(key) || positionOf(state, indexes, m.collection, m.id) !== undefined) continue;
      failures.set(w, new Error(`No ${m.collection} record with id ${m.id}`));
      return;
    }
    for (const key of mine) added.add(key);
  });
  return failures;
}

/**
 * Applies writes that checkBatch accepted, in place, keeping the id indexes current. The
 * store calls it only once the writes are durable, so readers never see an unacknowledged
 * write, and no collection is copied: a commit costs its own writes, whatever the size of
 * the collections it touches.
 */
export function applyChecked(state: StoreData, indexes: Map<CollectionName, IdIndex>, writes: readonly (readonly Mutation[])[]): void {
  for (const mutations of writes) {
    for (const m of mutations) {
      const list = state[m.collection] as unknown as Record<string, unknown>[];
      if (m.op === 'insert') {
        list.push(m.record);
        const index = indexes.get(m.collection);
        const id = m.record.id;
        if (index && typeof id === 'string' && !index.has(id)) index.set(id, list.length - 1);
      } else {
        const i = positionOf(state, indexes, m.collection, m.id);
        if (i === undefined) throw new Error(`No ${m.collection} record with id ${m.id}`); // checkBatch ran first: cannot happen
        list[i] = { ...list[i], ...m.patch };
      }
    }
  }
}

/** Position of a record by id, through the collection's index (built on first use). */
function positionOf(state: StoreData, indexes: Map<CollectionName, IdIndex>, collection: CollectionName, id: string): number | undefined {
  let index = indexes.get(collection);
  if (!index) {
    index = buildIndex(state[collection]);
    indexes.set(collection, index);
  }
  return index.get(id);
}

function buildIndex(list: readonly unknown[]): IdIndex {
  const index: IdIndex = new Map();
  list.forEach((r, i) => {
    const id = (r as { id?: unknown }).id;
    if (typeof id === 'string' && !index.has(id)) index.set(id, i);
  });
  return index;
}

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

/** Validates the text of a store file; throws StoreError naming the file and the bad path. */
export function parseStoreText(storePath: string, text: string): StoreData {
  if (text.trim() === '') throw new StoreError(storePath, 'file is empty (expected a JSON object with "version": 1)');
  let raw: unknown;
  try {
    raw = safeJsonParse(text);
  } catch (err) {
    throw new StoreError(storePath, `not valid JSON (${(err as Error).message})`, { cause: err });
  }
  return validateStoreObject(storePath, raw);
}

/**
 * Validates record by record: zod returns a copy of what it parses, and one copy of a
 * whole large store at once doubles the memory a load needs (and RSS keeps it). Only when
 * something is wrong does the whole-file parse run, for its exact message.
 */
function recordsValid(raw: Record<string, unknown>): boolean {
  if (raw.version !== 1) return false;
  for (const c of COLLECTION_NAMES) {
    const list = raw[c];
    if (list === undefined) continue;
    if (!Array.isArray(list)) return false;
    const schema = COLLECTIONS[c];
    for (const record of list) if (!schema.safeParse(record).success) return false;
  }
  return true;
}

function validateStoreObject(storePath: string, raw: unknown): StoreData {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new StoreError(storePath, 'expected a JSON object with "version": 1');
  const result = recordsValid(raw as Record<string, unknown>) ? { success: true as const } : StoreFile.safeParse(raw);
  if (!result.success) {
    const first = result.error.issues[0]!;
    const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more)` : '';
    throw new StoreError(storePath, describeIssue(first, raw) + more);
  }
  // Keep the raw object (validated, unchanged): unknown fields survive a rewrite. The seal
  // is recomputed on every rewrite, so it is not part of the data.
  const data = raw as StoreData;
  delete (data as Record<string, unknown>)[SEAL_FIELD];
  for (const c of COLLECTION_NAMES) if (data[c] === undefined) (data as Record<string, unknown>)[c] = [];
  return data;
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
 * Validates the bytes of a store file: empty, NUL-filled, truncated, unparsable, a broken
 * seal or an invalid record → StoreError naming the file and the problem.
 */
export function parseStoreBuffer(storePath: string, bytes: Buffer): StoreData {
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
  return validateStoreObject(storePath, raw);
}

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
async function withBackupHint(err: StoreError, storePath: string, fs: StoreFs): Promise<StoreError> {
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
async function rotateBackups(fs: StoreFs, storePath: string, keep: number): Promise<void> {
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
async function removeStaleTemps(storePath: string): Promise<void> {
  const base = basename(storePath).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(`^\\.${base}(\\.journal)?\\.\\d+\\.\\d+\\.tmp$`);
  const dir = dirname(storePath);
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => pattern.test(n)).map((n) => rm(join(dir, n), { force: true }).catch(() => undefined)));
}

export interface OpenStoreOptions {
  fs?: StoreFs;
  /** Take the single-writer lock (default true). */
  lock?: boolean;
  /** Content of a store file that does not exist yet (default: empty store). */
  initial?: () => StoreData;
  /**
   * Fold the journal into the snapshot once this many bytes were journaled since the last
   * fold. Default: 4 MiB, or a quarter of the snapshot's size if that is more (a fold costs
   * a whole-snapshot rewrite, so its cost per journaled byte stays flat on large stores, and
   * the replay at start stays a fraction of the load).
   */
  journalMaxBytes?: number;
  /** … or this many mutations. Default: 10,000, or one per KiB of snapshot if that is more. */
  journalMaxRecords?: number;
  /** Previous snapshots kept as `<store>.bak.N` (default 2). */
  backups?: number;
}

export interface StoreStats {
  /** Group commits made durable (one journal append + fsync each). */
  commits: number;
  /** fsync calls issued by the store (journal, snapshot, folder). */
  fsyncs: number;
  /** Current size of the journal file. */
  journalBytes: number;
  /** Mutations in the journal that the snapshot on disk does not hold yet. */
  journalRecords: number;
  /** Snapshot rewrites (folds) completed since open. */
  snapshots: number;
  /** Folds that failed (and will be retried). */
  foldFailures: number;
}

interface Pending {
  mutations: Mutation[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

interface Fold {
  phase: 'writing' | 'ready';
  id: string;
  size: number;
  tmp: string;
  /** Journal lines appended after the fold line: the new journal keeps them. */
  after: string[];
  afterRecords: number;
  afterBytes: number;
  /** What the new snapshot covers (subtracted from the counters once installed). */
  coversRecords: number;
  coversBytes: number;
}

const MUTATION_OPS = new Set(['insert', 'patch']);

function checkMutation(m: unknown): m is Mutation {
  if (!m || typeof m !== 'object') return false;
  const x = m as Record<string, unknown>;
  if (!MUTATION_OPS.has(x.op as string) || typeof x.collection !== 'string' || !(COLLECTION_NAMES as string[]).includes(x.collection)) return false;
  if (x.op === 'insert') return !!x.record && typeof x.record === 'object' && !Array.isArray(x.record);
  return typeof x.id === 'string' && !!x.patch && typeof x.patch === 'object' && !Array.isArray(x.patch);
}

/** Replays the planned groups over `data` (in place); a bad group → StoreError naming the journal line. */
function replay(journalPath: string, data: StoreData, groups: ReplayPlan['groups']): { data: StoreData; records: number } {
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

/**
 * The JSON file store (decisions.md §7). Readers see the last committed state only.
 *
 * Writes are queued and group-committed: every write pending at that moment becomes one
 * line of the journal (`<store>.journal`), written and fsynced once; then all of them are
 * acknowledged. A failed append cuts the journal back to its last good length, rejects the
 * group (503) and leaves memory at the last committed state.
 *
 * The journal is folded into the snapshot (the store file) past a threshold: the snapshot
 * text is built at once, written and fsynced to a temp file in the background while
 * commits go on, then installed between two commits (previous snapshot kept as .bak.1,
 * rename, folder fsync, journal reset). Also on a clean close. The store file is always a
 * complete, valid, sealed snapshot.
 */
export class Store {
  private state: StoreData;
  private indexes = new Map<CollectionName, IdIndex>();
  private pending: Pending[] = [];
  private loop: Promise<void> | null = null;
  private releaseLock: (() => void) | null;
  private closed = false;
  /** Number of commits since open; derived caches key on it. */
  generation = 0;
  /** Number of durable group commits (for tests and benchmarks). */
  commits = 0;

  private readonly journalPath: string;
  private jfh: FileHandleLike | null = null;
  /** Durable length of the journal. */
  private jLen: number;
  /** The journal may hold bytes after jLen (a failed append): cut them before the next one. */
  private jDirty = false;
  /** A folder fsync still owed (a rename whose fsync failed). */
  private dirSyncOwed = false;
  private seq: number;
  private unfoldedRecords: number;
  private unfoldedBytes: number;
  private fold: Fold | null = null;
  private foldTask: Promise<void> | null = null;
  private forceFold = false;
  private foldRetryAt = 0;
  private counters = { fsyncs: 0, snapshots: 0, foldFailures: 0 };
  /** Explicit thresholds (0 = the defaults, which scale with the snapshot). */
  private readonly maxBytes: number;
  private readonly maxRecords: number;
  private snapshotBytes: number;
  private readonly keepBackups: number;

  private constructor(
    readonly path: string | null,
    data: StoreData,
    private readonly fs: StoreFs,
    release: (() => void) | null,
    j: { len: number; seq: number; records: number; bytes: number; fsyncs: number; snapshotBytes: number },
    opts: OpenStoreOptions,
  ) {
    this.state = data;
    this.releaseLock = release;
    this.journalPath = path === null ? '' : journalPathOf(path);
    this.jLen = j.len;
    this.seq = j.seq;
    this.unfoldedRecords = j.records;
    this.unfoldedBytes = j.bytes;
    this.counters.fsyncs = j.fsyncs;
    this.snapshotBytes = j.snapshotBytes;
    this.maxBytes = opts.journalMaxBytes ?? 0;
    this.maxRecords = opts.journalMaxRecords ?? 0;
    this.keepBackups = opts.backups ?? DEFAULT_BACKUPS;
  }

  /** An in-memory store (no file, no lock): for unit tests and in-process use. */
  static memory(data: StoreData = emptyStore()): Store {
    const copy = safeJsonParse(JSON.stringify(data));
    return new Store(null, parseStoreText('(memory)', JSON.stringify(copy)), nodeFs, null, { len: 0, seq: 0, records: 0, bytes: 0, fsyncs: 0, snapshotBytes: 0 }, {});
  }

  /**
   * Opens (or creates) the store: lock, read and validate the snapshot, replay the journal.
   * A missing file is created durably; an empty, corrupt or invalid one is left untouched
   * and StoreError is thrown (naming the newest valid backup); so is a journal with a
   * damaged line in the middle, or with writes that belong to another snapshot.
   */
  static async open(path: string, opts: OpenStoreOptions = {}): Promise<Store> {
    const fs = opts.fs ?? nodeFs;
    const release = opts.lock === false ? null : acquireLock(path);
    let fsyncs = 0;
    const onSync = () => void fsyncs++;
    try {
      let data: StoreData;
      let bytes: Buffer | undefined;
      try {
        bytes = await fs.readFile(path);
      } catch (err) {
        if (!isCode(err, 'ENOENT')) throw new StoreError(path, `cannot read (${(err as Error).message})`, { cause: err });
      }
      if (bytes === undefined) {
        data = opts.initial ? opts.initial() : emptyStore();
        await fs.mkdir(dirname(path), { recursive: true });
        bytes = Buffer.from(serialize(data));
        await atomicWrite(fs, path, bytes, { sync: true, onSync });
        data = parseStoreBuffer(path, bytes);
      } else {
        try {
          data = parseStoreBuffer(path, bytes);
        } catch (err) {
          throw err instanceof StoreError ? await withBackupHint(err, path, fs) : err;
        }
      }
      const base = snapshotId(bytes);
      const snapshotBytes = bytes.length;
      bytes = undefined;
      if (release) await removeStaleTemps(path);

      // The journal: replay what the snapshot does not hold yet.
      const journalPath = journalPathOf(path);
      let jbytes: Buffer | undefined;
      try {
        jbytes = await fs.readFile(journalPath);
      } catch (err) {
        if (!isCode(err, 'ENOENT')) throw new StoreError(journalPath, `cannot read (${(err as Error).message})`, { cause: err });
      }
      let j = { len: 0, seq: 0, records: 0, bytes: 0, fsyncs: 0 };
      let fresh = jbytes === undefined;
      if (jbytes !== undefined) {
        let parsed;
        try {
          parsed = parseJournal(journalPath, jbytes);
        } catch (err) {
          if (err instanceof JournalCorruptError) {
            throw new StoreError(journalPath, `line ${err.line}: ${err.reason}; the store cannot be loaded safely (move the journal away to start from ${path} alone, losing the writes it holds)`, { cause: err });
          }
          throw err;
        }
        const plan = planReplay(parsed, base);
        if (!plan.matched && plan.unsaved > 0) {
          throw new StoreError(
            journalPath,
            `holds ${plan.unsaved} acknowledged group commit(s) made after a different version of ${path} (the store file was replaced or edited while they were pending); ` +
              `restore the store file cr wrote, or move the journal away to discard them`,
          );
        }
        if (plan.matched) {
          const r = replay(journalPath, data, plan.groups);
          data = r.data;
          j = { len: parsed.goodLength, seq: plan.lastSeq, records: r.records, bytes: parsed.goodLength - plan.anchorEnd, fsyncs: 0 };
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
        } else {
          fresh = true; // nothing unsaved, and it names another snapshot: start a new one
        }
      }
      if (fresh) {
        const header = headerLine(base);
        await atomicWrite(fs, journalPath, header, { sync: true, onSync });
        j = { len: Buffer.byteLength(header), seq: j.seq, records: 0, bytes: 0, fsyncs: 0 };
      }
      return new Store(path, data, fs, release, { ...j, fsyncs, snapshotBytes }, opts);
    } catch (err) {
      release?.();
      throw err;
    }
  }

  /** The committed snapshot. Treat as read-only. */
  get data(): Readonly<StoreData> {
    return this.state;
  }

  list<C extends CollectionName>(collection: C): readonly RecordOf<C>[] {
    return this.state[collection] as unknown as readonly RecordOf<C>[];
  }

  /** Lookup by id through a lazily built index. */
  get<C extends CollectionName>(collection: C, id: string): RecordOf<C> | undefined {
    const i = positionOf(this.state, this.indexes, collection, id);
    return i === undefined ? undefined : (this.state[collection][i] as unknown as RecordOf<C>);
  }

  /** Counters for tests and benchmarks. */
  stats(): StoreStats {
    return {
      commits: this.commits,
      fsyncs: this.counters.fsyncs,
      journalBytes: this.jLen,
      journalRecords: this.unfoldedRecords,
      snapshots: this.counters.snapshots,
      foldFailures: this.counters.foldFailures,
    };
  }

  /** Queues mutations; resolves once they are durable (shared commit with concurrent writers). */
  commit(mutations: Mutation[]): Promise<void> {
    if (this.closed) return Promise.reject(new StoreUnavailableError({ cause: new Error('store closed') }));
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ mutations, resolve, reject });
      this.kick();
    });
  }

  private kick() {
    this.loop ??= this.runLoop();
  }

  private onSync = () => void this.counters.fsyncs++;

  private async runLoop(): Promise<void> {
    try {
      // Let writes that arrive together join one commit.
      await new Promise((r) => setImmediate(r));
      while (!this.dead && (this.pending.length > 0 || this.fold?.phase === 'ready' || (this.forceFold && !this.fold))) {
        if (this.fold?.phase === 'ready') await this.installFold();
        if (this.pending.length > 0) await this.commitBatch();
        if (this.shouldFold()) await this.startFold();
      }
    } finally {
      this.loop = null;
    }
  }

  private async commitBatch(): Promise<void> {
    const batch = this.pending.splice(0);
    const failures = checkBatch(this.state, this.indexes, batch.map((p) => p.mutations));
    const accepted: Pending[] = [];
    batch.forEach((p, i) => {
      const failure = failures.get(i);
      if (failure) p.reject(failure);
      else accepted.push(p);
    });
    if (accepted.length === 0) return;
    if (this.path !== null) {
      const line = groupLine(this.seq + 1, accepted.map((p) => p.mutations));
      const records = accepted.reduce((n, p) => n + p.mutations.length, 0);
      try {
        await this.append(line);
      } catch (err) {
        const failure = new StoreUnavailableError({ cause: err });
        for (const p of accepted) p.reject(failure);
        return; // memory stays at the last committed state
      }
      this.seq++;
      const bytes = Buffer.byteLength(line);
      this.unfoldedRecords += records;
      this.unfoldedBytes += bytes;
      if (this.fold) {
        this.fold.after.push(line);
        this.fold.afterRecords += records;
        this.fold.afterBytes += bytes;
      }
    }
    // Durable now: only from here on may readers see these writes.
    applyChecked(this.state, this.indexes, accepted.map((p) => p.mutations));
    this.generation++;
    this.commits++;
    for (const p of accepted) p.resolve();
  }

  /** Appends to the journal and fsyncs it; on failure cuts it back to its last good length. */
  private async append(text: string): Promise<void> {
    if (this.dirSyncOwed) {
      await syncDir(this.fs, dirname(this.journalPath), this.onSync);
      this.dirSyncOwed = false;
    }
    this.jfh ??= await this.fs.open(this.journalPath, 'a', 0o600);
    const fh = this.jfh;
    if (this.jDirty) {
      await fh.truncate(this.jLen);
      this.onSync();
      await fh.sync();
      this.jDirty = false;
    }
    const buf = Buffer.from(text);
    try {
      await fh.writeFile(buf);
      this.onSync();
      await fh.sync();
    } catch (err) {
      this.jDirty = true;
      try {
        await fh.truncate(this.jLen);
        this.onSync();
        await fh.sync();
        this.jDirty = false;
      } catch {
        // Retried before the next append, on a fresh handle.
        this.jfh = null;
        await fh.close().catch(() => undefined);
      }
      throw err;
    }
    this.jLen += buf.length;
  }

  private shouldFold(): boolean {
    if (this.path === null || this.fold || this.closedForFolds) return false;
    if (this.forceFold) return true;
    if (this.unfoldedRecords === 0) return false;
    const maxBytes = this.maxBytes || Math.max(4 * 1024 * 1024, this.snapshotBytes / 4);
    const maxRecords = this.maxRecords || Math.max(10_000, this.snapshotBytes / 1024);
    if (this.unfoldedRecords < maxRecords && this.unfoldedBytes < maxBytes) return false;
    return Date.now() >= this.foldRetryAt;
  }

  private closedForFolds = false;
  private dead = false;

  /**
   * Starts a fold: the snapshot of the committed state is built now, a fold line naming it
   * is journaled, and the temp file is written and fsynced in the background.
   */
  private async startFold(): Promise<void> {
    this.forceFold = false;
    const path = this.path!;
    const bytes = Buffer.from(serialize(this.state));
    const id = snapshotId(bytes);
    try {
      await this.append(foldLine(this.seq, id));
    } catch {
      this.foldFailed();
      return;
    }
    const fold: Fold = {
      phase: 'writing',
      id,
      size: bytes.length,
      tmp: tempPathOf(path),
      after: [],
      afterRecords: 0,
      afterBytes: 0,
      coversRecords: this.unfoldedRecords,
      coversBytes: this.unfoldedBytes,
    };
    this.fold = fold;
    this.foldTask = (async () => {
      try {
        await writeTemp(this.fs, fold.tmp, bytes, { sync: true, onSync: this.onSync });
        fold.phase = 'ready';
      } catch {
        await this.fs.unlink(fold.tmp).catch(() => undefined);
        this.fold = null;
        this.foldFailed();
        return;
      } finally {
        this.foldTask = null;
      }
      this.kick();
    })();
  }

  private foldFailed() {
    this.counters.foldFailures++;
    this.foldRetryAt = Date.now() + Math.min(60_000, 500 * 2 ** Math.min(7, this.counters.foldFailures));
  }

  /** Installs a written fold, between two commits: backups, rename, folder fsync, journal reset. */
  private async installFold(): Promise<void> {
    const fold = this.fold!;
    const path = this.path!;
    let renamed = false;
    try {
      await rotateBackups(this.fs, path, this.keepBackups);
      await this.fs.rename(fold.tmp, path);
      renamed = true;
      await syncDir(this.fs, dirname(path), this.onSync);
    } catch {
      if (!renamed) await this.fs.unlink(fold.tmp).catch(() => undefined);
      this.fold = null;
      this.foldFailed();
      // Renamed but not known durable: keep the journal as it is (its fold line matches either snapshot).
      if (renamed) this.dirSyncOwed = true;
      return;
    }
    this.fold = null;
    this.counters.snapshots++;
    this.snapshotBytes = fold.size;
    this.counters.foldFailures = 0;
    this.foldRetryAt = 0;
    this.unfoldedRecords -= fold.coversRecords;
    this.unfoldedBytes -= fold.coversBytes;
    // A new journal: a header naming the new snapshot, then the groups journaled since the fold line.
    const text = headerLine(fold.id) + fold.after.join('');
    const tmp = tempPathOf(this.journalPath);
    try {
      await writeTemp(this.fs, tmp, text, { sync: true, onSync: this.onSync });
    } catch {
      await this.fs.unlink(tmp).catch(() => undefined);
      return; // the old journal stays valid (its fold line names the new snapshot)
    }
    const old = this.jfh;
    this.jfh = null;
    await old?.close().catch(() => undefined);
    try {
      await this.fs.rename(tmp, this.journalPath);
    } catch {
      await this.fs.unlink(tmp).catch(() => undefined);
      return;
    }
    this.jLen = Buffer.byteLength(text);
    this.jDirty = false;
    try {
      await syncDir(this.fs, dirname(this.journalPath), this.onSync);
    } catch {
      this.dirSyncOwed = true;
    }
  }

  /** Waits until every queued write is committed (or failed). */
  async flush(): Promise<void> {
    while (this.loop) await this.loop;
  }

  /** Folds the journal into the snapshot now (and waits for it); a failure leaves the journal in charge. */
  async compact(): Promise<void> {
    if (this.path === null || this.dead) return;
    await this.settleFold();
    this.forceFold = true;
    this.kick();
    await this.settleFold();
  }

  private async settleFold() {
    while (!this.dead) {
      await this.flush();
      if (this.foldTask) {
        await this.foldTask;
        continue;
      }
      if (this.fold?.phase === 'ready' || this.pending.length > 0) {
        this.kick();
        continue;
      }
      return;
    }
  }

  /**
   * Drops the store the way a crash would (tests): no flush, no fold, nothing more written
   * once the write in progress ends; the journal handle is closed and the lock released.
   */
  async abandon(): Promise<void> {
    this.dead = true;
    this.closed = true;
    this.closedForFolds = true;
    await this.foldTask;
    await this.loop;
    for (const p of this.pending.splice(0)) p.reject(new StoreUnavailableError({ cause: new Error('store abandoned') }));
    await this.jfh?.close().catch(() => undefined);
    this.jfh = null;
    this.releaseLock?.();
    this.releaseLock = null;
  }

  /** Flushes, folds the journal into the snapshot, closes the journal and releases the lock. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    try {
      await this.settleFold();
      if (this.path !== null && this.unfoldedRecords > 0) await this.compact();
    } finally {
      this.closedForFolds = true;
      await this.jfh?.close().catch(() => undefined);
      this.jfh = null;
      this.releaseLock?.();
      this.releaseLock = null;
    }
  }
}

/**
 * The text of a snapshot: pretty-printed JSON, sealed with the crc32 of the rest of the file
 * in a first `"checksum"` line (see checkSeal).
 */
export function serialize(data: StoreData): string {
  const { [SEAL_FIELD]: _seal, ...rest } = data as Record<string, unknown>;
  const body = JSON.stringify(rest, null, 2);
  return `${SEAL_HEAD}${hex8(crc32(body.slice(2), CRC_OPEN))}${SEAL_TAIL}${body.slice(2)}\n`;
}
