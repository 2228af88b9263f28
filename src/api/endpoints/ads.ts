import { endpoint } from '../table-entry.js';
import { AdCreative, CreateAdCreativeBody } from '../schemas/ads.js';

/** The endpoint table's ads entries (src/api/endpoints.ts lists every area). */
export const adsEndpoints = {
  createAdCreative: endpoint({
    operationId: 'createAdCreative',
    method: 'POST',
    path: '/content/ads/creatives/create',
    tag: 'Content',
    title: 'Create ad creative',
    description: 'Creates an ad creative (status draft, source api, metrics zero).',
    minRole: 'editor',
    websiteScope: 'single',
    websiteParam: 'body',
    idempotent: false,
    errorStatuses: [400, 401, 403, 413, 415, 429, 500, 503, 507],
    params: undefined,
    query: undefined,
    body: CreateAdCreativeBody,
    data: AdCreative,
  }),
} as const;
