import { z } from 'zod';
import { httpUrl, uuid, websiteIdField } from './common.js';
import { AD_FORMATS, AD_PLATFORMS } from '../vocabulary.js';

export { AD_FORMATS, AD_PLATFORMS };

export const CreateAdCreativeBody = z.object({
  website_id: websiteIdField(),
  ad_format: z.enum(AD_FORMATS),
  name: z.string().min(1).max(200),
  campaign_id: z.string().min(1).max(200).optional(),
  headline: z.string().max(300).optional(),
  description: z.string().max(2000).optional(),
  destination_url: httpUrl(),
  image_urls: z.array(httpUrl()).max(20).optional(),
  product_line_id: uuid().optional(),
  platform: z.enum(AD_PLATFORMS).optional(),
});
export type CreateAdCreativeBody = z.infer<typeof CreateAdCreativeBody>;

export const AdCreative = z.looseObject({
  id: z.string(),
  platform: z.string(),
  adFormat: z.string(),
  name: z.string(),
  campaignId: z.string(),
  campaignName: z.string(),
  status: z.string(),
  source: z.string(),
  destinationUrl: z.string(),
  imageUrls: z.array(z.string()),
  impressions: z.number(),
  clicks: z.number(),
  spend: z.number(),
  conversions: z.number(),
  ctr: z.number(),
  roas: z.number(),
  optimizationScore: z.number(),
  lastEvalScore: z.number(),
  createdAt: z.string(),
});
export type AdCreative = z.infer<typeof AdCreative>;
