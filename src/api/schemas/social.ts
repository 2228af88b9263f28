import { z } from 'zod';
import { isoDateTimeWithOffset, uuid } from './common.js';

export const POST_STATUSES = ['draft', 'scheduled', 'publishing', 'published', 'failed'] as const;
export type PostStatus = (typeof POST_STATUSES)[number];

export const SchedulePostParams = z.object({ id: uuid().describe('Social post identifier') });
export const SchedulePostBody = z.object({
  scheduled_at: isoDateTimeWithOffset().describe('When to publish; strictly in the future'),
});
export type SchedulePostBody = z.infer<typeof SchedulePostBody>;

export const ScheduledPost = z.looseObject({
  id: z.string(),
  status: z.string(),
  scheduledAt: z.string(),
});
export type ScheduledPost = z.infer<typeof ScheduledPost>;
