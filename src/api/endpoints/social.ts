import { endpoint } from '../table-entry.js';
import { ScheduledPost, SchedulePostBody, SchedulePostParams } from '../schemas/social.js';

/** The endpoint table's social entries (src/api/endpoints.ts lists every area). */
export const socialEndpoints = {
  scheduleSocialPost: endpoint({
    operationId: 'scheduleSocialPost',
    method: 'POST',
    path: '/social/posts/{id}/schedule',
    tag: 'Social',
    title: 'Schedule social post',
    description: 'Schedules a draft social post for future publishing; a scheduled post is rescheduled.',
    minRole: 'editor',
    websiteScope: 'filter',
    websiteParam: 'query',
    idempotent: true,
    errorStatuses: [400, 401, 403, 404, 409, 413, 415, 429, 500, 503, 507],
    params: SchedulePostParams,
    query: undefined,
    body: SchedulePostBody,
    data: ScheduledPost,
  }),
} as const;
