import * as z from 'zod';
import { dateTime, documentedEnum, websiteIdField } from './common.js';
import { localEnum } from '../json-schema.js';

/** Dimension types of a learning; the CLI reads them, and the largest limit, from src/api/generated/request-schemas.ts. */
export const DimensionType = z.enum(['hook', 'angle', 'offer', 'story', 'audience', 'format', 'cta']);
export const LEARNING_STATUSES = ['candidate', 'testing', 'confirmed', 'rejected', 'archived'] as const;

export const ListLearningsQuery = z.object({
  website_id: websiteIdField(),
  dimension_type: DimensionType.optional().describe('Only learnings of this dimension type'),
  limit: z.number().int().min(1).max(200).default(50).describe('Maximum number of learnings'),
});
export type ListLearningsQuery = z.infer<typeof ListLearningsQuery>;

export const Learning = z
  .looseObject({
    id: z.string(),
    channel: z.string(),
    dimensionType: localEnum(documentedEnum(DimensionType.options)),
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
