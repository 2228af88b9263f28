import { newAdCreativeView } from '../../../api/ad-creative.js';
import { AdCreative } from '../../../api/schemas/ads.js';
import type { CreateAdCreativeBody } from '../../../api/schemas/ads.js';
import { ContentListener, POLL_INTERVAL_MS } from '../../../api/schemas/listeners.js';
import type { CreateListenerBody } from '../../../api/schemas/listeners.js';
import type { AdCampaignRecord, AdCreativeRecord } from '../../store/schema.js';
import { pickShape } from './pick.js';

/**
 * The stored record of a new ad creative (docs/api-decisions.md §5). Platform: the body's, else the
 * known campaign's, else meta; campaignName from the known campaign or "".
 */
export function newAdCreative(body: CreateAdCreativeBody, ctx: { id: string; now: Date; websiteId: string; campaign?: AdCampaignRecord }): AdCreativeRecord {
  return {
    ...newAdCreativeView({
      id: ctx.id,
      platform: body.platform ?? ctx.campaign?.platform ?? 'meta',
      adFormat: body.ad_format,
      name: body.name,
      campaignId: body.campaign_id ?? '',
      campaignName: ctx.campaign?.name ?? '',
      destinationUrl: body.destination_url,
      imageUrls: body.image_urls ?? [],
      createdAt: ctx.now.toISOString(),
    }),
    websiteId: ctx.websiteId,
    headline: body.headline ?? null,
    description: body.description ?? null,
    productLineId: body.product_line_id ?? null,
  };
}

/** The response view of an ad creative: AdCreative's fields only (no websiteId, headline…). */
export const adCreativeView = (r: AdCreativeRecord): AdCreative => pickShape<AdCreative>(AdCreative, r);

/** A new listener: enabled, never polled, next poll one interval after creation. */
export function newContentListener(body: CreateListenerBody, ctx: { id: string; now: Date; websiteId: string }): ContentListener {
  const createdAt = ctx.now.toISOString();
  return {
    id: ctx.id,
    websiteId: ctx.websiteId,
    name: body.name,
    sourceType: body.source_type,
    queryConfig: body.query_config,
    pollInterval: body.poll_interval,
    nextPollAt: new Date(ctx.now.getTime() + POLL_INTERVAL_MS[body.poll_interval]).toISOString(),
    lastPolledAt: null,
    lastItemCount: 0,
    enabled: true,
    createdAt,
    updatedAt: createdAt,
  };
}

export const contentListenerView = (r: ContentListener): ContentListener => pickShape<ContentListener>(ContentListener, r);
