import * as z from 'zod';
import { ROLES } from '../../api/schemas/common.js';
import { BusinessEntity, RevenueRecord } from '../../api/schemas/finance.js';
import { AdCreative } from '../../api/schemas/ads.js';
import { ContentListener } from '../../api/schemas/listeners.js';
import { Learning } from '../../api/schemas/intelligence.js';
import { NurtureSequence } from '../../api/schemas/nurture.js';
import { VisibilityKeyword } from '../../api/schemas/visibility.js';
import { BrandSubject } from '../../api/schemas/brand.js';
import { PromptVersion } from '../../api/schemas/crm.js';
import { POST_STATUSES } from '../../api/schemas/social.js';

/**
 * Records of the local server's JSON file store (docs/api-decisions.md §7). Each keeps the API's
 * own field names plus its scope field; fields not listed here are kept and ignored.
 * Listed fields are validated for presence and type only, so a stored `publicUrl` may be
 * a `data:` URL that the API then leaves out.
 */
const str = () => z.string();
const nstr = () => z.string().nullable();

export const UserRecord = z.looseObject({ id: str(), email: str(), name: str() });
export const AgencyRecord = z.looseObject({ id: str(), name: str() });
export const WebsiteRecord = z.looseObject({
  id: str(),
  name: str(),
  domain: str(),
  agency_id: nstr(),
  owner_id: str(),
  location: z.looseObject({ lat: z.number(), lng: z.number() }).nullable(),
});
export const ApiKeyRecord = z
  .looseObject({
    id: str(),
    name: str(),
    key_sha256: z.string().regex(/^[0-9a-f]{64}$/, 'expected lowercase hex sha256'),
    user_id: str(),
    role: z.enum(ROLES),
    website_id: nstr().optional(),
    agency_id: nstr().optional(),
    created_at: str(),
    revoked_at: nstr(),
  })
  .superRefine((k, ctx) => {
    if (!k.website_id === !k.agency_id) {
      ctx.addIssue({ code: 'custom', path: ['website_id'], message: 'exactly one of website_id and agency_id must be set' });
    }
  });
export const CostItemRecord = z.looseObject({
  id: str(),
  entity_id: str(),
  category: z.enum(['ai', 'software', 'staff', 'other']),
  monthly_cents: z.number().int(),
  description: str(),
});
export const AdCampaignRecord = z.looseObject({ id: str(), websiteId: str(), name: str(), platform: str() });
export const AdCreativeRecord = z.looseObject({
  ...AdCreative.shape,
  websiteId: str(),
  headline: nstr(),
  description: nstr(),
  productLineId: nstr(),
});
export const SocialPostRecord = z.looseObject({
  id: str(),
  websiteId: str(),
  status: z.enum(POST_STATUSES),
  content: str(),
  scheduledAt: nstr(),
  createdAt: str(),
  updatedAt: str(),
});
export const LearningRecord = z.looseObject({ ...Learning.shape, websiteId: str() });
const { stepCount: _stepCount, ...nurtureShape } = NurtureSequence.shape;
export const NurtureRecord = z.looseObject({ ...nurtureShape, websiteId: str(), steps: z.array(z.unknown()) });
export const VisibilityScanRecord = z.looseObject({
  websiteId: str(),
  scanDate: str(),
  keywords: z.array(VisibilityKeyword),
});
const StoredImage = z.looseObject({
  imageId: str(),
  publicUrl: nstr().optional(),
  base64: nstr().optional(),
});
export const BrandSubjectRecord = z.looseObject({
  ...BrandSubject.shape,
  websiteId: str(),
  referenceImages: z.array(StoredImage.extend({ label: str(), isPrimary: z.boolean() })),
  brandMark: StoredImage.nullable().optional(),
});
export const CrmAgentRecord = z.looseObject({
  id: str(),
  websiteId: str(),
  crmAgentId: str(),
  name: str(),
  status: str(),
  createdAt: str(),
  promptVersions: z.array(PromptVersion),
});

export const COLLECTIONS = {
  users: UserRecord,
  agencies: AgencyRecord,
  websites: WebsiteRecord,
  api_keys: ApiKeyRecord,
  business_entities: BusinessEntity,
  revenue_records: RevenueRecord,
  cost_items: CostItemRecord,
  ad_campaigns: AdCampaignRecord,
  ad_creatives: AdCreativeRecord,
  content_listeners: ContentListener,
  social_posts: SocialPostRecord,
  learnings: LearningRecord,
  nurture_sequences: NurtureRecord,
  visibility_scans: VisibilityScanRecord,
  brand_subjects: BrandSubjectRecord,
  crm_agents: CrmAgentRecord,
} as const;

export type CollectionName = keyof typeof COLLECTIONS;
export const COLLECTION_NAMES = Object.keys(COLLECTIONS) as CollectionName[];
export type RecordOf<C extends CollectionName> = z.infer<(typeof COLLECTIONS)[C]>;

/** The store file's top-level object: `version` 1 and one array per collection (absent = empty). */
export const StoreFile = z.looseObject({
  version: z.literal(1),
  ...(Object.fromEntries(COLLECTION_NAMES.map((n) => [n, z.array(COLLECTIONS[n]).optional()])) as {
    [C in CollectionName]: z.ZodOptional<z.ZodArray<(typeof COLLECTIONS)[C]>>;
  }),
});

/** The in-memory store: every collection present. Unknown top-level fields are kept. */
export type StoreData = { version: 1; [key: string]: unknown } & { [C in CollectionName]: RecordOf<C>[] };

export type UserRecord = z.infer<typeof UserRecord>;
export type AgencyRecord = z.infer<typeof AgencyRecord>;
export type WebsiteRecord = z.infer<typeof WebsiteRecord>;
export type ApiKeyRecord = z.infer<typeof ApiKeyRecord>;
export type CostItemRecord = z.infer<typeof CostItemRecord>;
export type AdCampaignRecord = z.infer<typeof AdCampaignRecord>;
export type AdCreativeRecord = z.infer<typeof AdCreativeRecord>;
export type SocialPostRecord = z.infer<typeof SocialPostRecord>;
export type LearningRecord = z.infer<typeof LearningRecord>;
export type NurtureRecord = z.infer<typeof NurtureRecord>;
export type VisibilityScanRecord = z.infer<typeof VisibilityScanRecord>;
export type BrandSubjectRecord = z.infer<typeof BrandSubjectRecord>;
export type CrmAgentRecord = z.infer<typeof CrmAgentRecord>;

/** An empty store with every collection present. */
export function emptyStore(): StoreData {
  const data: Record<string, unknown> = { version: 1 };
  for (const n of COLLECTION_NAMES) data[n] = [];
  return data as StoreData;
}
