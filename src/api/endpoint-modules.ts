import type { Endpoints, TableEndpoint } from './endpoints.js';
import type { OperationId } from './routes.js';

type AreaOf<Op extends OperationId> = () => Promise<{ readonly [K in Op]: Endpoints[K] }>;

/**
 * The file of the endpoint table (endpoints/<area>.ts) that holds each operation's entry, loaded
 * when the server first answers that operation: a run loads the zod schemas of the operations it
 * calls, not the whole table's (CONTRIBUTING.md, "How `cr` starts"). The type checker refuses an
 * operation without its line, and a line whose file does not hold that operation.
 */
const AREAS: { [Op in OperationId]: AreaOf<Op> } = {
  getFinanceSummary: () => import('./endpoints/finance.js').then((m) => m.financeEndpoints),
  createAdCreative: () => import('./endpoints/ads.js').then((m) => m.adsEndpoints),
  createContentListener: () => import('./endpoints/listeners.js').then((m) => m.listenersEndpoints),
  scheduleSocialPost: () => import('./endpoints/social.js').then((m) => m.socialEndpoints),
  listLearnings: () => import('./endpoints/intelligence.js').then((m) => m.intelligenceEndpoints),
  listNurtureSequences: () => import('./endpoints/nurture.js').then((m) => m.nurtureEndpoints),
  getGbpVisibility: () => import('./endpoints/visibility.js').then((m) => m.visibilityEndpoints),
  listBrandSubjects: () => import('./endpoints/brand.js').then((m) => m.brandEndpoints),
  listCrmAgents: () => import('./endpoints/crm.js').then((m) => m.crmEndpoints),
};

const loaded = new Map<string, TableEndpoint>();

/**
 * An operation's entry of the endpoint table: at once when it was loaded before (every request
 * after an operation's first), else a promise of it; undefined for a name the table lacks.
 */
export function endpointOf(operationId: string): TableEndpoint | Promise<TableEndpoint> | undefined {
  const hit = loaded.get(operationId);
  if (hit) return hit;
  if (!Object.hasOwn(AREAS, operationId)) return undefined;
  return AREAS[operationId as OperationId]().then((area) => {
    const ep = (area as Record<string, TableEndpoint>)[operationId]!;
    loaded.set(operationId, ep);
    return ep;
  });
}
