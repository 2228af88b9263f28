import * as z from 'zod';
import { dateTime, documentedEnum, isoDateTimeWithOffset, uuid } from './common.js';

export const POST_STATUSES = ['draft', 'scheduled', 'publishing', 'published', 'failed'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export const SchedulePostParams = z.object({ id: uuid().describe('Social post identifier') });
export const SchedulePostBody = z
  .object({
    scheduled_at: isoDateTimeWithOffset().describe(
      "When to publish: an ISO 8601 date-time with an offset or Z, strictly in the future (a time not after the server's now is a 400)",
    ),
  })
  .meta({ id: 'ScheduleSocialPostRequest', description: 'Body of POST /social/posts/{id}/schedule (docs/api-decisions.md §5)' });
export type SchedulePostBody = z.infer<typeof SchedulePostBody>;

export const ScheduledPost = z
  .looseObject({
    id: z.string(),
    status: documentedEnum(['scheduled']).describe('Always scheduled after scheduling'),
    scheduledAt: dateTime(),
  })
  .meta({ id: 'ScheduledPost', description: 'A social post as returned by scheduling' });
export type ScheduledPost = z.infer<typeof ScheduledPost>;
