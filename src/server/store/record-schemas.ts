import type { z } from 'zod';
import type { CollectionName } from './collections.js';

type AreaOf<C extends CollectionName> = () => Promise<{ readonly [K in C]: z.ZodType }>;

const access = () => import('./records/access.js').then((m) => m.accessRecords);
const finance = () => import('./records/finance.js').then((m) => m.financeRecords);
const ads = () => import('./records/ads.js').then((m) => m.adsRecords);

/**
 * The file of records/ that holds each collection's record schema, loaded when a store first
 * validates that collection (collection-checks.ts, replay.ts): a `--local` run loads the API
 * schemas of the collections it reads, not the whole store's (CONTRIBUTING.md, "How `cr`
 * starts"). The type checker refuses a collection without its line, and a line whose file does
 * not hold that collection.
 */
const AREAS: { [C in CollectionName]: AreaOf<C> } = {
  users: access,
  agencies: access,
  websites: access,
  api_keys: access,
  business_entities: finance,
  revenue_records: finance,
  cost_items: finance,
  ad_campaigns: ads,
  ad_creatives: ads,
  content_listeners: () => import('./records/listeners.js').then((m) => m.listenersRecords),
  social_posts: () => import('./records/social.js').then((m) => m.socialRecords),
  learnings: () => import('./records/intelligence.js').then((m) => m.intelligenceRecords),
  nurture_sequences: () => import('./records/nurture.js').then((m) => m.nurtureRecords),
  visibility_scans: () => import('./records/visibility.js').then((m) => m.visibilityRecords),
  brand_subjects: () => import('./records/brand.js').then((m) => m.brandRecords),
  crm_agents: () => import('./records/crm.js').then((m) => m.crmRecords),
};

/** The record schema of a collection (the same object as schema.ts COLLECTIONS holds), loaded on first use. */
export async function recordSchemaOf(collection: CollectionName): Promise<z.ZodType> {
  const area = await AREAS[collection]();
  return (area as Record<string, z.ZodType>)[collection]!;
}
