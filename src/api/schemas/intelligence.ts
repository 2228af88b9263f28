import { z } from 'zod';
import { websiteIdField } from './common.js';
import { LEARNINGS_MAX_LIMIT } from '../vocabulary.js';

export const DIMENSION_TYPES = ['hook', 'angle', 'offer', 'story', 'audience', 'format', 'cta'] as const;
export const LEARNING_STATUSES = ['candidate', 'testing', 'confirmed', 'rejected', 'archived'] as const;

export const ListLearningsQuery = z.object({
  website_id: websiteIdField(),
  dimension_type: z.enum(DIMENSION_TYPES).optional().describe('Only learnings of this dimension type'),
  limit: z.number().int().min(1).max(LEARNINGS_MAX_LIMIT).default(50).describe('Maximum number of learnings'),
});
export type ListLearningsQuery = z.infer<typeof ListLearningsQuery>;

export const Learning = z.looseObject({
  id: z.string(),
  channel: z.string(),
  dimensionType: z.string(),
  dimensionValue: z.string(),
  summary: z.string(),
  evidenceCount: z.number().int(),
  confidenceScore: z.number(),
  status: z.string(),
  createdAt: z.string(),
});
export type Learning = z.infer<typeof Learning>;

export const LearningsList = z.looseObject({ learnings: z.array(Learning), total: z.number().int() });
export type LearningsList = z.infer<typeof LearningsList>;
