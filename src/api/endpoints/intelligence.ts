import { endpoint } from '../table-entry.js';
import { LearningsList, ListLearningsQuery } from '../schemas/intelligence.js';

/** The endpoint table's intelligence entries (src/api/endpoints.ts lists every area). */
export const intelligenceEndpoints = {
  listLearnings: endpoint({
    operationId: 'listLearnings',
    method: 'GET',
    path: '/intelligence/learnings',
    tag: 'Intelligence',
    title: 'List confirmed learnings',
    description: 'Lists confirmed learnings (validated by two or more independent test wins), highest confidence first.',
    minRole: 'viewer',
    websiteScope: 'single',
    websiteParam: 'query',
    idempotent: true,
    errorStatuses: [400, 401, 403, 429, 500],
    params: undefined,
    query: ListLearningsQuery,
    body: undefined,
    data: LearningsList,
  }),
} as const;
