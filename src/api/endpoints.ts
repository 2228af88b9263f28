import { CRM_PATH_SEGMENT } from './vocabulary.js';
import { financeEndpoints } from './endpoints/finance.js';
import { adsEndpoints } from './endpoints/ads.js';
import { listenersEndpoints } from './endpoints/listeners.js';
import { socialEndpoints } from './endpoints/social.js';
import { intelligenceEndpoints } from './endpoints/intelligence.js';
import { nurtureEndpoints } from './endpoints/nurture.js';
import { visibilityEndpoints } from './endpoints/visibility.js';
import { brandEndpoints } from './endpoints/brand.js';
import { crmEndpoints } from './endpoints/crm.js';

export { CRM_PATH_SEGMENT };
export type { OperationId } from './routes.js';
export type { Route, WebsiteParam, WebsiteScope } from './route-types.js';
export type { Endpoint } from './table-entry.js';
// Types only: the table must compile into the generator without the files it generates.
import type { OperationId } from './routes.js';
import type { Endpoint } from './table-entry.js';
import type { Route } from './route-types.js';

/*
 * The endpoint table: every published endpoint (table-entry.ts), each written once in the file
 * of its area under endpoints/, beside the schemas of src/api/schemas/ it uses, so that the
 * server loads one area's schemas for the operation it answers (endpoint-modules.ts) while the
 * generator, the OpenAPI document and the MCP tools read the whole table here.
 *
 * Error statuses (docs/api-decisions.md §1): every operation can answer 401, 403, 429 and 500; 400
 * where it takes input (brand subjects and CRM agents take the website_id filter); writes
 * add 413 (body size), 415 (a body that is not JSON), 503 (store) and 507 (store full, §9);
 * scheduling adds the post lookup (404) and state (409).
 */
export const endpoints = {
  ...financeEndpoints,
  ...adsEndpoints,
  ...listenersEndpoints,
  ...socialEndpoints,
  ...intelligenceEndpoints,
  ...nurtureEndpoints,
  ...visibilityEndpoints,
  ...brandEndpoints,
  ...crmEndpoints,
} as const;

export type Endpoints = typeof endpoints;
/** Any entry of the table, its operation name typed. */
export type TableEndpoint = Endpoint & Route<OperationId>;
export const endpointList: readonly TableEndpoint[] = Object.values(endpoints) as readonly TableEndpoint[];
