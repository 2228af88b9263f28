import type { z } from 'zod';
import type { accessRecords } from './records/access.js';
import type { financeRecords } from './records/finance.js';
import type { adsRecords } from './records/ads.js';
import type { listenersRecords } from './records/listeners.js';
import type { socialRecords } from './records/social.js';
import type { intelligenceRecords } from './records/intelligence.js';
import type { nurtureRecords } from './records/nurture.js';
import type { visibilityRecords } from './records/visibility.js';
import type { brandRecords } from './records/brand.js';
import type { crmRecords } from './records/crm.js';

/**
 * The collections of the store (docs/store-format.md "Collections"), without zod: their names,
 * in the file's order, the types of their records and an empty store. The record schemas are
 * in records/<area>.ts, loaded one area at a time (record-schemas.ts) or all together (schema.ts).
 */
export const COLLECTION_NAMES = [
  'users',
  'agencies',
  'websites',
  'api_keys',
  'business_entities',
  'revenue_records',
  'cost_items',
  'ad_campaigns',
  'ad_creatives',
  'content_listeners',
  'social_posts',
  'learnings',
  'nurture_sequences',
  'visibility_scans',
  'brand_subjects',
  'crm_agents',
] as const;

export type CollectionName = (typeof COLLECTION_NAMES)[number];

/** The record schema of each collection, as a type. */
type Schemas = typeof accessRecords &
  typeof financeRecords &
  typeof adsRecords &
  typeof listenersRecords &
  typeof socialRecords &
  typeof intelligenceRecords &
  typeof nurtureRecords &
  typeof visibilityRecords &
  typeof brandRecords &
  typeof crmRecords;

// The names above and the record modules hold the same collections: a name without a schema, or one more schema, fails to compile.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const _sameCollections: Same<keyof Schemas, CollectionName> = true;
void _sameCollections;

export type RecordOf<C extends CollectionName> = z.infer<Schemas[C]>;

/** The in-memory store: every collection present. Unknown top-level fields are kept. */
export type StoreData = { version: 1; [key: string]: unknown } & { [C in CollectionName]: RecordOf<C>[] };

/** An empty store with every collection present. */
export function emptyStore(): StoreData {
  const data: Record<string, unknown> = { version: 1 };
  for (const n of COLLECTION_NAMES) data[n] = [];
  return data as StoreData;
}
