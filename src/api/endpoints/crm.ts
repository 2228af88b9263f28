import { endpoint } from '../table-entry.js';
import { CrmAgentList } from '../schemas/crm.js';
import { ScopeFilterQuery } from '../schemas/common.js';
import { CRM_PATH_SEGMENT } from '../vocabulary.js';

/** The endpoint table's crm entries (src/api/endpoints.ts lists every area). */
export const crmEndpoints = {
  listCrmAgents: endpoint({
    operationId: 'listCrmAgents',
    method: 'GET',
    path: `/integrations/${CRM_PATH_SEGMENT}/agents`,
    pathSegments: { crm: CRM_PATH_SEGMENT },
    tag: 'Integrations',
    title: 'List CRM agents',
    description: 'Lists the CRM AI agents with their active prompt version (prompt text truncated to 200 characters).',
    minRole: 'viewer',
    websiteScope: 'filter',
    websiteParam: 'query',
    idempotent: true,
    errorStatuses: [400, 401, 403, 429, 500],
    params: undefined,
    query: ScopeFilterQuery,
    body: undefined,
    data: CrmAgentList,
  }),
} as const;
