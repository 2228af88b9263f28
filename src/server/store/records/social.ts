import * as z from 'zod';
import { POST_STATUSES } from '../../../api/schemas/social.js';

/** Records of social posts (docs/store-format.md). */
export const SocialPostRecord = z.looseObject({
  id: z.string(),
  websiteId: z.string(),
  status: z.enum(POST_STATUSES),
  content: z.string(),
  scheduledAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const socialRecords = { social_posts: SocialPostRecord } as const;

export type SocialPostRecord = z.infer<typeof SocialPostRecord>;
