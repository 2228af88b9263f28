import { dirname } from 'node:path';
import type { Clock } from '../domain/clock.js';
import { clockFromEnv } from '../domain/clock.js';
import { StoreError, serialize } from '../store/store.js';
import { openStore } from '../store/open-store.js';
import { acquireLock } from '../store/lock.js';
import { atomicWrite, nodeFs } from '../store/fs-layer.js';
import type { StoreFs } from '../store/fs-layer.js';
import { journalPathOf } from '../store/journal.js';
import { resolveStorePath } from '../store/store-path.js';
import { emptyStore } from '../store/collections.js';
import type { StoreData } from '../store/schema.js';
import type { ApiStore } from '../store/api-store.js';
import { DEMO, demoStore } from './seed.js';
import { buildApiKey } from '../domain/keys.js';
import { UsageError } from '../../errors.js';

export interface InitStoreOptions {
  demo?: boolean;
  /** Replace an existing store file. */
  force?: boolean;
  clock?: Clock;
  fs?: StoreFs;
}

/** What is at `p`: nothing, a folder, or something else (a store file, or what --force replaces). */
const whatIsAt = (fs: StoreFs, p: string): 'nothing' | 'folder' | 'file' => {
  try {
    return (fs.sync.stat(p) as { isDirectory?: () => boolean }).isDirectory?.() === true ? 'folder' : 'file';
  } catch {
    return 'nothing';
  }
};

/**
 * `cr local init`: creates the store (demo data or a minimal user/agency/website) and an
 * admin key scoped to the first website, returned once. An existing store is refused
 * unless `force`; a store held by a running server is always refused.
 */
export async function initStore(given: string, o: InitStoreOptions = {}): Promise<{ key: string; storePath: string; keyId: string; websiteId: string }> {
  const clock = o.clock ?? clockFromEnv();
  const fs = o.fs ?? nodeFs;
  const path = resolveStorePath(given, fs); // --force through a symlink replaces its target, under the target's lock
  // A store is a file: a folder is neither an existing store nor one --force may replace.
  const there = whatIsAt(fs, path);
  if (there === 'folder') throw new StoreError(path, 'this is a folder, not a store file; name a file in it, e.g. --store DIR/store.json');
  if (there === 'file' && !o.force) {
    throw new StoreError(path, 'a store already exists here (use --force to replace it)');
  }
  const data = o.demo ? demoStore(clock) : minimalStore();
  if (o.force) {
    // Replace whatever is there (even an invalid file), under the lock.
    const release = acquireLock(path, fs);
    try {
      await fs.mkdir(dirname(path), { recursive: true });
      await atomicWrite(fs, path, serialize(data), { sync: true });
      // The old store's journal belongs to the replaced file.
      await fs.unlink(journalPathOf(path)).catch(() => undefined);
    } finally {
      release();
    }
  }
  const store = await openStore(path, { file: { initial: () => data, fs } });
  try {
    return { ...(await adminKey(store, o.demo, clock)), storePath: path };
  } finally {
    await store.close();
  }
}

/** The admin key `cr local init` prints once, scoped to the store's first website. */
async function adminKey(store: ApiStore, demo: boolean | undefined, clock: Clock): Promise<{ key: string; keyId: string; websiteId: string }> {
  const { key, record, websiteId } = await buildAdminKey(store, demo, clock);
  await store.commit([{ op: 'insert', collection: 'api_keys', record }]);
  return { key, keyId: record.id, websiteId };
}

async function buildAdminKey(store: ApiStore, demo: boolean | undefined, clock: Clock) {
  const websiteId = (await store.firstWebsite())!.id;
  const made = await buildApiKey(store, {
    role: 'admin',
    websiteId,
    userId: demo ? DEMO.ownerUserId : undefined,
    name: 'local admin',
    now: clock.now(),
  });
  return { ...made, websiteId };
}

/**
 * `cr local init --store postgres://…` (docs/shared-sandbox.md "The local tool set"): the same
 * records and admin key, loaded into an empty database in one transaction as `cr local copy`
 * loads one; a database that holds records is refused (there is no --force for a database).
 * `storePath` is the URL without its password.
 */
export async function initDatabase(
  url: string,
  o: Omit<InitStoreOptions, 'force' | 'fs'> & { env?: NodeJS.ProcessEnv } = {},
): Promise<{ key: string; storePath: string; keyId: string; websiteId: string }> {
  const clock = o.clock ?? clockFromEnv();
  const { loadInto, DestinationNotEmptyError } = await import('../store-pg/bulk-load.js');
  // The admin key is one of the records loaded: the load's one transaction makes the store and
  // its key together, so an init stopped half-way (Ctrl-C, a lost connection) leaves the database
  // empty and a second init can fill it, never records with no key to reach them.
  const data = o.demo ? demoStore(clock) : minimalStore();
  const made = await buildAdminKey(await openStore({ memory: data }), o.demo, clock);
  data.api_keys.push(made.record);
  const store = await openStore(url, { database: { max: 2, env: o.env } });
  try {
    // The caller (commands/local/init.ts) passes a postgres:// URL only; a store file is made by initStore.
    if (store.kind !== 'postgres') throw new Error(`initDatabase: ${store.location} is not a database`);
    try {
      await loadInto(store, data);
    } catch (err) {
      // As a store file that exists (commands/local/init.ts): a usage matter, exit 2.
      if (err instanceof DestinationNotEmptyError)
        throw new UsageError(
          `a store already exists at ${store.location} (${err.records} records)`,
          'cr local init fills only an empty database: name another one',
        );
      throw err;
    }
    return { key: made.key, keyId: made.record.id, websiteId: made.websiteId, storePath: store.location };
  } finally {
    await store.close();
  }
}

function minimalStore(): StoreData {
  const d = emptyStore();
  const userId = globalThis.crypto.randomUUID();
  const agencyId = globalThis.crypto.randomUUID();
  d.users = [{ id: userId, email: 'operator@localhost', name: 'Local operator' }];
  d.agencies = [{ id: agencyId, name: 'Local agency' }];
  d.websites = [{ id: globalThis.crypto.randomUUID(), name: 'My website', domain: 'localhost', agency_id: agencyId, owner_id: userId, location: null }];
  return d;
}
