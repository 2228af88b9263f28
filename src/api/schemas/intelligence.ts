import { z } from 'zod';
import { dateTime, documentedEnum, websiteIdField } from './common.js';
import { localEnum } from '../json-schema.js';
import { DIMENSION_TYPES, LEARNINGS_MAX_LIMIT } from '../vocabulary.js';

export { DIMENSION_TYPES };
export const LEARNING_STATUSES = ['candidate', 'testing', 'confirmed', 'rejected', 'archived'] as const;

export const ListLearningsQuery = z.object({
  website_id: websiteIdField(),
  dimension_type: z.enum(DIMENSION_TYPES).optional().describe('Only learnings of this dimension type'),
  limit: z.number().int().min(1).max(LEARNINGS_MAX_LIMIT).default(50).describe('Maximum number of learnings'),
});
export type ListLearningsQuery = z.infer<typeof ListLearningsQuery>;

export const Learning = z
  .looseObject({
    id: z.string(),
    channel: z.string(),
    dimensionType: localEnum(documentedEnum(DIMENSION_TYPES)),
    dimensionValue: z.string(),
    summary: z.string(),
    evidenceCount: z.number().int(),
    confidenceScore: z.number(),
    status: localEnum(documentedEnum(['confirmed'])).describe('Only confirmed learnings are listed'),
    createdAt: dateTime(),
  })
  .meta({ id: 'Learning', description: 'A durable pattern validated by two or more independent test wins' });
export type Learning = z.infer<typeof Learning>;

export const LearningsList = z
  .looseObject({ learnings: z.array(Learning), total: z.number().int().describe('Matches before the limit') })
  .meta({ id: 'LearningList' });
export type LearningsList = z.infer<typeof LearningsList>;
