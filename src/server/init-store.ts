import { dirname } from 'node:path';
import type { Clock } from './clock.js';
import { clockFromEnv } from './clock.js';
import { StoreError, serialize } from './store/store.js';
import { JsonStore } from './store/json-store.js';
import { acquireLock } from './store/lock.js';
import { atomicWrite, nodeFs } from './store/fs-layer.js';
import type { StoreFs } from './store/fs-layer.js';
import { journalPathOf } from './store/journal.js';
import { resolveStorePath } from './store/store-path.js';
import { emptyStore } from './store/schema.js';
import type { StoreData } from './store/schema.js';
import { DEMO, demoStore } from './seed.js';
import { createApiKey } from './keys.js';

export interface InitStoreOptions {
  demo?: boolean;
  /** Replace an existing store file. */
  force?: boolean;
  clock?: Clock;
  fs?: StoreFs;
}

const exists = (fs: StoreFs, p: string) => {
  try {
    fs.sync.stat(p);
    return true;
  } catch {
    return false;
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
  if (exists(fs, path) && !o.force) {
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
  const store = await JsonStore.open(path, { initial: () => data, fs });
  try {
    const websiteId = (await store.firstWebsite())!.id;
    const { key, record } = await createApiKey(store, {
      role: 'admin',
      websiteId,
      userId: o.demo ? DEMO.ownerUserId : undefined,
      name: 'local admin',
      now: clock.now(),
    });
    return { key, storePath: path, keyId: record.id, websiteId };
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
