import * as z from 'zod';
import { AdCreative } from '../../../api/schemas/ads.js';

/** Records of ad campaigns and creatives (docs/store-format.md); a creative keeps the API's fields and its store-only ones. */
const nstr = () => z.string().nullable();

export const AdCampaignRecord = z.looseObject({ id: z.string(), websiteId: z.string(), name: z.string(), platform: z.string() });
export const AdCreativeRecord = z.looseObject({
  ...AdCreative.shape,
  websiteId: z.string(),
  headline: nstr(),
  description: nstr(),
  productLineId: nstr(),
});

export const adsRecords = { ad_campaigns: AdCampaignRecord, ad_creatives: AdCreativeRecord } as const;

export type AdCampaignRecord = z.infer<typeof AdCampaignRecord>;
export type AdCreativeRecord = z.infer<typeof AdCreativeRecord>;
