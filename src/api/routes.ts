import type { Role } from './vocabulary.js';

/**
 * How an endpoint treats website scope (decisions.md §2):
 * - `owner`: not website data at all (finance belongs to the key's user);
 * - `single`: addresses one website; agency keys must name it;
 * - `filter`: lists everything in the key's scope, optionally narrowed by website_id.
 */
export type WebsiteScope = 'owner' | 'single' | 'filter';

/**
 * The HTTP facts of one published endpoint. The endpoint table (endpoints.ts) adds the zod
 * schemas of its input and output; the CLI needs only these facts (and the response
 * schemas as JSON Schema, response-schemas.ts), so a command never loads zod.
 */
export interface Route<Op extends string = string> {
  operationId: Op;
  method: 'GET' | 'POST';
  /** Path under /api/v1, with `{name}` path parameters. */
  path: string;
  tag: string;
  title: string;
  description: string;
  minRole: Role;
  websiteScope: WebsiteScope;
}

const route = <Op extends string>(r: Route<Op>) => r;

export const routes = {
  getFinanceSummary: route({
    operationId: 'getFinanceSummary',
    method: 'GET',
    path: '/finance/summary',
    tag: 'Finance',
    title: 'Finance summary',
    description:
      'Aggregates over all business entities owned by the authenticated user: monthly recurring revenue, active client count, monthly costs, AI costs and upcoming invoice alerts.',
    minRole: 'viewer',
    websiteScope: 'owner',
  }),
  createAdCreative: route({
    operationId: 'createAdCreative',
    method: 'POST',
    path: '/content/ads/creatives/create',
    tag: 'Content',
    title: 'Create ad creative',
    description: 'Creates an ad creative (status draft, source api, metrics zero). Minimum role: editor.',
    minRole: 'editor',
    websiteScope: 'single',
  }),
  createContentListener: route({
    operationId: 'createContentListener',
    method: 'POST',
    path: '/content/listeners',
    tag: 'Content Listeners',
    title: 'Create content listener',
    description:
      'Creates a content listener that subscribes to an external source (reddit, youtube, google_news, google_search, rss, linkedin, x, pinterest, quora). Minimum role: editor.',
    minRole: 'editor',
    websiteScope: 'single',
  }),
  scheduleSocialPost: route({
    operationId: 'scheduleSocialPost',
    method: 'POST',
    path: '/social/posts/{id}/schedule',
    tag: 'Social',
    title: 'Schedule social post',
    description:
      'Schedules a draft social post for future publishing; a scheduled post is rescheduled. Minimum role: editor.',
    minRole: 'editor',
    websiteScope: 'filter',
  }),
  listLearnings: route({
    operationId: 'listLearnings',
    method: 'GET',
    path: '/intelligence/learnings',
    tag: 'Intelligence',
    title: 'List confirmed learnings',
    description:
      'Lists confirmed learnings (validated by two or more independent test wins), highest confidence first.',
    minRole: 'viewer',
    websiteScope: 'single',
  }),
  listNurtureSequences: route({
    operationId: 'listNurtureSequences',
    method: 'GET',
    path: '/content/nurture-sequences',
    tag: 'Content',
    title: 'List nurture sequences',
    description: 'Lists nurture sequences with step counts, most recently updated first, one page at a time.',
    minRole: 'viewer',
    websiteScope: 'single',
  }),
  getGbpVisibility: route({
    operationId: 'getGbpVisibility',
    method: 'GET',
    path: '/gbp/visibility',
    tag: 'GBP',
    title: 'Visibility rank grid',
    description:
      'Returns the latest visibility rank grid of the business profile: 9x9 points within 25 miles per tracked keyword.',
    minRole: 'viewer',
    websiteScope: 'single',
  }),
  listBrandSubjects: route({
    operationId: 'listBrandSubjects',
    method: 'GET',
    path: '/brand/brand-subjects',
    tag: 'Brand',
    title: 'List brand subjects',
    description: 'Lists brand subjects with reference image URLs (base64 image data removed).',
    minRole: 'viewer',
    websiteScope: 'filter',
  }),
  listCrmAgents: route({
    operationId: 'listCrmAgents',
    method: 'GET',
    path: '/integrations/crm/agents',
    tag: 'Integrations',
    title: 'List CRM agents',
    description: 'Lists the CRM AI agents with their active prompt version (prompt text truncated to 200 characters).',
    minRole: 'viewer',
    websiteScope: 'filter',
  }),
} as const;

export type OperationId = keyof typeof routes;

export { CRM_PATH_SEGMENT } from './vocabulary.js';
