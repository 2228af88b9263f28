import type { ApiStore } from '../../store/api-store.js';
import { scopeOf } from '../../store/batch.js';
import type { Mutation } from '../../store/batch.js';
import { COLLECTION_NAMES } from '../../store/collections.js';
import type { CollectionName, StoreData } from '../../store/schema.js';

/**
 * `cr local reset` (docs/local-server.md "Resetting a store"): empties one website's records,
 * or every record but the keys, in one write (all or nothing), and forgets the matching
 * rate-limit windows. Run over an open store, whether the CLI opened it or a running server
 * holds it (routes.ts), as the rest of store-ops.ts.
 */

/** One website's records, or all data but the keys. */
export type ResetScope = { websiteId: string } | { allData: true };

/** What a reset removed: records per collection (only those with some), and the keys whose rate window was forgotten. */
export interface ResetCounts {
  removed: Partial<Record<CollectionName, number>>;
  rate_windows: number | 'all';
}

/** A reset that cannot be done (an unknown website): nothing was removed. */
export class ResetError extends Error {
  constructor(
    readonly kind: 'unknown-website',
    message: string,
  ) {
    super(message);
    this.name = 'ResetError';
  }
}

/** The collections that make up a store's tenants and access; the rest is data. */
const STRUCTURE: readonly CollectionName[] = ['users', 'agencies', 'websites', 'api_keys'];

export async function resetStore(store: ApiStore, scope: ResetScope): Promise<ResetCounts> {
  if ('websiteId' in scope) {
    if (!(await store.website(scope.websiteId)))
      throw new ResetError('unknown-website', `No website with id ${scope.websiteId} in ${store.location}; nothing was removed`);
  }
  const data = await store.snapshot();
  const mutations: Mutation[] = [];
  const removed: ResetCounts['removed'] = {};
  const count = (collection: CollectionName, n: number) => {
    if (n > 0) removed[collection] = n;
  };
  for (const collection of COLLECTION_NAMES) {
    if (STRUCTURE.includes(collection)) continue;
    const rows = data[collection] as unknown as Record<string, unknown>[];
    const n = 'websiteId' in scope ? rows.filter((r) => scopeOf(r) === scope.websiteId).length : rows.length;
    if (n === 0) continue;
    mutations.push({ op: 'clear', collection, ...('websiteId' in scope ? { websiteId: scope.websiteId } : {}) });
    count(collection, n);
  }
  if ('allData' in scope) {
    for (const [collection, ids] of unkeyedStructure(data)) {
      if (ids.length === 0) continue;
      mutations.push({ op: 'remove', collection, ids });
      count(collection, ids.length);
    }
  }
  if (mutations.length) await store.commit(mutations);
  if ('websiteId' in scope) {
    const keys = data.api_keys.filter((k) => k.website_id === scope.websiteId).map((k) => k.id);
    if (keys.length) await store.rateForget(keys);
    return { removed, rate_windows: keys.length };
  }
  await store.rateForget('all');
  return { removed, rate_windows: 'all' };
}

/**
 * The users, agencies and websites no key needs. Kept: the users the keys belong to, the
 * websites website keys are scoped to, the agencies agency keys are scoped to, and the owner
 * and agency of each website kept (so the store stays whole: docs/fixtures.md references).
 * An agency key's agency stays; its websites no key names go.
 */
function unkeyedStructure(data: Readonly<StoreData>): [CollectionName, string[]][] {
  const users = new Set<string>();
  const agencies = new Set<string>();
  const websites = new Set<string>();
  for (const k of data.api_keys) {
    users.add(k.user_id);
    if (k.website_id) websites.add(k.website_id);
    if (k.agency_id) agencies.add(k.agency_id);
  }
  for (const w of data.websites) {
    if (!websites.has(w.id)) continue;
    users.add(w.owner_id);
    if (w.agency_id) agencies.add(w.agency_id);
  }
  return [
    ['websites', data.websites.filter((w) => !websites.has(w.id)).map((w) => w.id)],
    ['agencies', data.agencies.filter((a) => !agencies.has(a.id)).map((a) => a.id)],
    ['users', data.users.filter((u) => !users.has(u.id)).map((u) => u.id)],
  ];
}
