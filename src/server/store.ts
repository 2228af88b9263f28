import { dirname } from 'node:path';
import type { z } from 'zod';
import { COLLECTION_NAMES, StoreFile, emptyStore } from './store-schema.js';
import type { CollectionName, RecordOf, StoreData } from './store-schema.js';
import { atomicWrite, isCode, nodeFs } from './fs-layer.js';
import type { StoreFs } from './fs-layer.js';
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

/** Applies mutations copy-on-write: untouched collections are shared with `state`. */
export function applyMutations(
  state: StoreData,
  indexes: Map<CollectionName, IdIndex>,
  mutations: readonly Mutation[],
): { state: StoreData; touched: Set<CollectionName> } {
  const next = { ...state } as StoreData;
  const touched = new Set<CollectionName>();
  const rows = (c: CollectionName): Record<string, unknown>[] => {
    if (!touched.has(c)) {
      (next as Record<string, unknown>)[c] = [...(state[c] as unknown[])];
      touched.add(c);
    }
    return next[c] as unknown as Record<string, unknown>[];
  };
  const extraIds = new Map<string, number>();
  for (const m of mutations) {
    if (m.op === 'insert') {
      const list = rows(m.collection);
      list.push(m.record);
      if (typeof m.record.id === 'string') extraIds.set(`${m.collection}\u0000${m.record.id}`, list.length - 1);
    } else {
      const key = `${m.collection}\u0000${m.id}`;
      const i = extraIds.get(key) ?? indexes.get(m.collection)?.get(m.id) ?? indexOfId(state[m.collection] as { id?: unknown }[], m.id);
      if (i === undefined || i < 0) throw new Error(`No ${m.collection} record with id ${m.id}`);
      const list = rows(m.collection);
      list[i] = { ...list[i], ...m.patch };
    }
  }
  return { state: next, touched };
}

const indexOfId = (list: { id?: unknown }[], id: string) => list.findIndex((r) => r.id === id);

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
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw new StoreError(storePath, 'expected a JSON object with "version": 1');
  const result = StoreFile.safeParse(raw);
  if (!result.success) {
    const first = result.error.issues[0]!;
    const more = result.error.issues.length > 1 ? ` (and ${result.error.issues.length - 1} more)` : '';
    throw new StoreError(storePath, describeIssue(first, raw) + more);
  }
  // Keep the raw object (validated, unchanged): unknown fields survive a rewrite.
  const data = raw as StoreData;
  for (const c of COLLECTION_NAMES) if (data[c] === undefined) (data as Record<string, unknown>)[c] = [];
  return data;
}

export interface OpenStoreOptions {
  fs?: StoreFs;
  /** Take the single-writer lock (default true). */
  lock?: boolean;
  /** Content of a store file that does not exist yet (default: empty store). */
  initial?: () => StoreData;
}

interface Pending {
  mutations: Mutation[];
  resolve: () => void;
  reject: (err: unknown) => void;
}

/**
 * The JSON file store (decisions.md §7). Readers see the last committed snapshot only;
 * writes are queued and group-committed (one durable rewrite flushes every pending
 * mutation); a failed commit leaves memory at the last committed state.
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
  /** Number of durable rewrites performed (for tests and benchmarks). */
  commits = 0;

  private constructor(
    readonly path: string | null,
    data: StoreData,
    private readonly fs: StoreFs,
    release: (() => void) | null,
  ) {
    this.state = data;
    this.releaseLock = release;
  }

  /** An in-memory store (no file, no lock): for unit tests and in-process use. */
  static memory(data: StoreData = emptyStore()): Store {
    const copy = safeJsonParse(JSON.stringify(data));
    return new Store(null, parseStoreText('(memory)', JSON.stringify(copy)), nodeFs, null);
  }

  /**
   * Opens (or creates) the store file: lock, read, validate. A missing file is created
   * durably; an empty, corrupt or invalid one is left untouched and StoreError is thrown.
   */
  static async open(path: string, opts: OpenStoreOptions = {}): Promise<Store> {
    const fs = opts.fs ?? nodeFs;
    const release = opts.lock === false ? null : acquireLock(path);
    try {
      let data: StoreData;
      let text: string | undefined;
      try {
        text = (await fs.readFile(path)).toString('utf8');
      } catch (err) {
        if (!isCode(err, 'ENOENT')) throw new StoreError(path, `cannot read (${(err as Error).message})`, { cause: err });
      }
      if (text === undefined) {
        data = opts.initial ? opts.initial() : emptyStore();
        await fs.mkdir(dirname(path), { recursive: true });
        await atomicWrite(fs, path, serialize(data), { sync: true });
        data = parseStoreText(path, serialize(data));
      } else {
        data = parseStoreText(path, text);
      }
      return new Store(path, data, fs, release);
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
    let index = this.indexes.get(collection);
    if (!index) {
      index = buildIndex(this.state[collection]);
      this.indexes.set(collection, index);
    }
    const i = index.get(id);
    return i === undefined ? undefined : (this.state[collection][i] as unknown as RecordOf<C>);
  }

  /** Queues mutations; resolves once they are durable (shared commit with concurrent writers). */
  commit(mutations: Mutation[]): Promise<void> {
    if (this.closed) return Promise.reject(new StoreUnavailableError({ cause: new Error('store closed') }));
    return new Promise<void>((resolve, reject) => {
      this.pending.push({ mutations, resolve, reject });
      this.loop ??= this.runLoop();
    });
  }

  private async runLoop(): Promise<void> {
    try {
      // Let writes that arrive together join one commit.
      await new Promise((r) => setImmediate(r));
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0);
        let state = this.state;
        let touched = new Set<CollectionName>();
        const accepted: Pending[] = [];
        for (const p of batch) {
          try {
            const r = applyMutations(state, this.indexes, p.mutations);
            // Copy-on-write across batch members: a second member must see the first one's arrays.
            state = r.state;
            for (const c of r.touched) touched.add(c);
            accepted.push(p);
          } catch (err) {
            p.reject(err);
          }
        }
        if (accepted.length === 0) continue;
        try {
          if (this.path !== null) await atomicWrite(this.fs, this.path, serialize(state), { sync: true });
        } catch (err) {
          const failure = new StoreUnavailableError({ cause: err });
          for (const p of accepted) p.reject(failure);
          continue; // memory stays at the last committed state
        }
        this.state = state;
        for (const c of touched) this.indexes.delete(c);
        this.generation++;
        this.commits++;
        for (const p of accepted) p.resolve();
      }
    } finally {
      this.loop = null;
    }
  }

  /** Waits until every queued write is committed (or failed). */
  async flush(): Promise<void> {
    while (this.loop) await this.loop;
  }

  /** Flushes and releases the lock. */
  async close(): Promise<void> {
    await this.flush();
    this.closed = true;
    this.releaseLock?.();
    this.releaseLock = null;
  }
}

export const serialize = (data: StoreData) => JSON.stringify(data, null, 2) + '\n';
