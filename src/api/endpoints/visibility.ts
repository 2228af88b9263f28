import { endpoint } from '../table-entry.js';
import { Visibility, VisibilityQuery } from '../schemas/visibility.js';

/** The endpoint table's visibility entries (src/api/endpoints.ts lists every area). */
export const visibilityEndpoints = {
  getGbpVisibility: endpoint({
    operationId: 'getGbpVisibility',
    method: 'GET',
    path: '/gbp/visibility',
    tag: 'GBP',
    title: 'Visibility rank grid',
    description: 'Returns the latest visibility rank grid of the business profile: 9x9 points within 25 miles per tracked keyword.',
    minRole: 'viewer',
    websiteScope: 'single',
    websiteParam: 'query',
    idempotent: true,
    errorStatuses: [400, 401, 403, 429, 500],
    params: undefined,
    query: VisibilityQuery,
    body: undefined,
    data: Visibility,
  }),
} as const;
