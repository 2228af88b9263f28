import * as z from 'zod';
import { COLLECTION_NAMES } from './collections.js';
import type { CollectionName } from './collections.js';
import { accessRecords } from './records/access.js';
import { financeRecords } from './records/finance.js';
import { adsRecords } from './records/ads.js';
import { listenersRecords } from './records/listeners.js';
import { socialRecords } from './records/social.js';
import { intelligenceRecords } from './records/intelligence.js';
import { nurtureRecords } from './records/nurture.js';
import { visibilityRecords } from './records/visibility.js';
import { brandRecords } from './records/brand.js';
import { crmRecords } from './records/crm.js';

export type { CollectionName, RecordOf, StoreData } from './collections.js';
export { AgencyRecord, ApiKeyRecord, UserRecord, WebsiteRecord } from './records/access.js';
export { CostItemRecord } from './records/finance.js';
export { AdCampaignRecord, AdCreativeRecord } from './records/ads.js';
export { SocialPostRecord } from './records/social.js';
export { LearningRecord } from './records/intelligence.js';
export { NurtureRecord } from './records/nurture.js';
export { VisibilityScanRecord } from './records/visibility.js';
export { BrandSubjectRecord } from './records/brand.js';
export { CrmAgentRecord } from './records/crm.js';

/**
 * Records of the local server's JSON file store (docs/api-decisions.md §7), every collection's
 * schema at once: for checking a whole store file or fixture (validate-store.ts,
 * src/server/ops/admin/fixtures.ts). Each keeps the API's own field names plus its scope field;
 * fields not listed are kept and ignored. Listed fields are validated for presence and type
 * only, so a stored `publicUrl` may be a `data:` URL that the API then leaves out. Each area's
 * schemas are in records/<area>.ts; a store opened for --local loads only those of the
 * collections it uses (record-schemas.ts). Names, record types and an empty store, without
 * zod: collections.ts.
 */
export const COLLECTIONS = {
  ...accessRecords,
  ...financeRecords,
  ...adsRecords,
  ...listenersRecords,
  ...socialRecords,
  ...intelligenceRecords,
  ...nurtureRecords,
  ...visibilityRecords,
  ...brandRecords,
  ...crmRecords,
} as const satisfies Record<CollectionName, z.ZodType>;

/** The store file's top-level object: `version` 1 and one array per collection (absent = empty). */
export const StoreFile = z.looseObject({
  version: z.literal(1),
  ...(Object.fromEntries(COLLECTION_NAMES.map((n) => [n, z.array(COLLECTIONS[n]).optional()])) as {
    [C in CollectionName]: z.ZodOptional<z.ZodArray<(typeof COLLECTIONS)[C]>>;
  }),
});
