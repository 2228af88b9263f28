import { endpoint } from '../table-entry.js';
import { FinanceSummary } from '../schemas/finance.js';

/** The endpoint table's finance entries (src/api/endpoints.ts lists every area). */
export const financeEndpoints = {
  getFinanceSummary: endpoint({
    operationId: 'getFinanceSummary',
    method: 'GET',
    path: '/finance/summary',
    tag: 'Finance',
    title: 'Finance summary',
    description:
      'Aggregates over all business entities owned by the authenticated user: monthly recurring revenue, active client count, monthly costs, AI costs and upcoming invoice alerts.',
    minRole: 'viewer',
    websiteScope: 'owner',
    // The service declares no parameter and ignores it; docs/cli-contract.md still sends --website everywhere.
    websiteParam: 'query',
    idempotent: true,
    errorStatuses: [401, 403, 429, 500],
    params: undefined,
    query: undefined,
    body: undefined,
    data: FinanceSummary,
  }),
} as const;
