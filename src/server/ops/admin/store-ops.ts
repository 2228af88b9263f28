import { openStore } from '../../store/open-store.js';
import type { ApiStore } from '../../store/api-store.js';
import type { StoreData } from '../../store/schema.js';
import { createApiKey, KeyError } from '../../domain/keys.js';
import type { CreateKeyOptions, KeyInfo } from '../../domain/keys.js';
import { exportDocument, planSeed } from './fixtures.js';
import type { SeedPlan } from './fixtures.js';
import type { CollectionName } from '../../store/schema.js';

/**
 * Everything the local administration does to a store, in one place (docs/fixtures.md,
 * docs/commands.md "Local store administration"): seed, export and keys, over an open store, whether the CLI
 * opened it under its lock or a running server holds it (src/server/app/admin-routes.ts). The
 * store's reads and writes go only through the functions here.
 */

export type SeedCounts = SeedPlan['counts'];

/** Upserts a fixture document in one write: all of it, or nothing (FixtureError lists every problem). */
export async function seedStore(store: ApiStore, doc: unknown): Promise<SeedCounts> {
  const data = await store.snapshot();
  const ids = new Map<CollectionName, Set<unknown>>();
  const idsOf = (c: CollectionName) => {
    const known = ids.get(c);
    if (known) return known;
    const made = new Set((data[c] as readonly { id?: unknown }[]).map((r) => r.id));
    ids.set(c, made);
    return made;
  };
  const plan = planSeed(doc, {
    has: (c, id) => idsOf(c).has(id),
    list: (c) => data[c] as readonly Record<string, unknown>[],
    get: (c, id) => (idsOf(c).has(id) ? (data[c] as readonly Record<string, unknown>[]).find((r) => r.id === id) : undefined),
  });
  if (plan.mutations.length) await store.commit(plan.mutations);
  return plan.counts;
}

/** The store's data as a fixture document (text), whole or `only` some collections. */
export const exportStore = (data: Readonly<StoreData>, only?: readonly CollectionName[]): string => exportDocument((c) => data[c], only);

const infoOf = ({ key_sha256: _hash, ...info }: StoreData['api_keys'][number]): KeyInfo => info;

/** Key metadata, never the hash. */
export const listStoreKeys = async (store: ApiStore): Promise<KeyInfo[]> => (await store.apiKeys()).map(infoOf);

/** A new key: the plain key once, and its metadata. */
export async function createStoreKey(store: ApiStore, o: CreateKeyOptions): Promise<{ key: string; info: KeyInfo }> {
  const made = await createApiKey(store, o);
  return { key: made.key, info: infoOf(made.record) };
}

/** Sets revoked_at (idempotent). Unknown id → KeyError 'unknown-key'. */
export async function revokeStoreKey(store: ApiStore, id: string, now: Date): Promise<KeyInfo> {
  const k = await store.apiKey(id);
  if (!k) throw new KeyError('unknown-key', `No API key with id ${id}`);
  if (!k.revoked_at) await store.commit([{ op: 'patch', collection: 'api_keys', id, patch: { revoked_at: now.toISOString() } }]);
  return infoOf((await store.apiKey(id))!);
}

/** Runs `fn` over the store file under its lock (the CLI, when no server holds the store). */
export async function withOpenStore<T>(path: string, fn: (store: ApiStore) => Promise<T>): Promise<T> {
  const store = await openStore(path, { file: { lockLabel: 'cr local' } });
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}
