import { endpoint } from '../table-entry.js';
import { ListNurtureQuery, NurtureList } from '../schemas/nurture.js';

/** The endpoint table's nurture entries (src/api/endpoints.ts lists every area). */
export const nurtureEndpoints = {
  listNurtureSequences: endpoint({
    operationId: 'listNurtureSequences',
    method: 'GET',
    path: '/content/nurture-sequences',
    tag: 'Content',
    title: 'List nurture sequences',
    description: 'Lists nurture sequences with step counts, most recently updated first, one page at a time.',
    minRole: 'viewer',
    websiteScope: 'single',
    websiteParam: 'query',
    idempotent: true,
    errorStatuses: [400, 401, 403, 429, 500],
    params: undefined,
    query: ListNurtureQuery,
    body: undefined,
    data: NurtureList,
  }),
} as const;
