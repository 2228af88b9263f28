import { endpoint } from '../table-entry.js';
import { BrandSubjectList } from '../schemas/brand.js';
import { ScopeFilterQuery } from '../schemas/common.js';

/** The endpoint table's brand entries (src/api/endpoints.ts lists every area). */
export const brandEndpoints = {
  listBrandSubjects: endpoint({
    operationId: 'listBrandSubjects',
    method: 'GET',
    path: '/brand/brand-subjects',
    tag: 'Brand',
    title: 'List brand subjects',
    description: 'Lists brand subjects with reference image URLs (base64 image data removed).',
    minRole: 'viewer',
    websiteScope: 'filter',
    websiteParam: 'query',
    idempotent: true,
    errorStatuses: [400, 401, 403, 429, 500],
    params: undefined,
    query: ScopeFilterQuery,
    body: undefined,
    data: BrandSubjectList,
  }),
} as const;
