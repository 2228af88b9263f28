import type { AdCreative } from './schemas/ads.js';

/** What a creation decides; the rest of a new creative is the same for all (docs/api-decisions.md §5). */
export type NewAdCreativeFields = Pick<AdCreative, 'id' | 'platform' | 'adFormat' | 'name' | 'destinationUrl' | 'createdAt'> &
  Partial<Pick<AdCreative, 'campaignId' | 'campaignName' | 'imageUrls'>>;

/**
 * A new ad creative as the API returns it (docs/api-decisions.md §5): a draft from the API, with
 * no campaign or image unless given and every metric at zero. The server's stored record
 * (src/server/domain/compute/writes.ts) and the OpenAPI example (src/api/examples.ts) are built by it.
 * Zod-free, so that the example does not load the schemas.
 */
export function newAdCreativeView(f: NewAdCreativeFields): AdCreative {
  return {
    id: f.id,
    platform: f.platform,
    adFormat: f.adFormat,
    name: f.name,
    campaignId: f.campaignId ?? '',
    campaignName: f.campaignName ?? '',
    status: 'draft',
    source: 'api',
    destinationUrl: f.destinationUrl,
    imageUrls: f.imageUrls ?? [],
    impressions: 0,
    clicks: 0,
    spend: 0,
    conversions: 0,
    ctr: 0,
    roas: 0,
    optimizationScore: 0,
    lastEvalScore: 0,
    createdAt: f.createdAt,
  };
}
