import * as z from 'zod';
import { dateTime, documentedEnum, httpUrl, uuid, websiteIdField } from './common.js';
import { localEnum } from '../json-schema.js';

/** `ad_format` and `platform` of an ad creative; the CLI reads them from src/api/generated/request-schemas.ts. */
export const AdFormat = z.enum(['single_image', 'carousel', 'video', 'responsive_search', 'responsive_display']);
export const AdPlatform = z.enum(['google', 'meta', 'linkedin', 'tiktok', 'pinterest', 'x']);

export const CreateAdCreativeBody = z
  .object({
    website_id: websiteIdField(),
    ad_format: AdFormat,
    name: z.string().min(1).max(200),
    campaign_id: z.string().min(1).max(200).optional().describe('A known campaign also sets the platform and campaign name'),
    headline: z.string().max(300).optional(),
    description: z.string().max(2000).optional(),
    destination_url: httpUrl().describe('Landing page, http or https'),
    image_urls: z.array(httpUrl()).max(20).optional().describe('Up to 20 http or https image URLs'),
    product_line_id: uuid().optional(),
    platform: AdPlatform.optional().describe("Default: the known campaign's platform, else meta"),
  })
  .meta({ id: 'CreateAdCreativeRequest', description: 'Body of POST /content/ads/creatives/create (docs/api-decisions.md §5); unknown fields are ignored' });
export type CreateAdCreativeBody = z.infer<typeof CreateAdCreativeBody>;

export const AdCreative = z
  .looseObject({
    id: z.string(),
    platform: localEnum(documentedEnum(AdPlatform.options)),
    adFormat: localEnum(documentedEnum(AdFormat.options)),
    name: z.string(),
    campaignId: z.string(),
    campaignName: z.string().describe('Name of the known campaign, else empty'),
    status: localEnum(documentedEnum(['draft'])).describe('A new creative is a draft'),
    source: localEnum(documentedEnum(['api'])).describe('Created through the API'),
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
    createdAt: dateTime(),
  })
  .meta({ id: 'AdCreative', description: 'An ad creative, as returned by its creation (metrics start at zero)' });
export type AdCreative = z.infer<typeof AdCreative>;
