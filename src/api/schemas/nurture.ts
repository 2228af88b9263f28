import * as z from 'zod';
import { dateTime, documentedEnum, websiteIdField } from './common.js';
import { localEnum } from '../json-schema.js';

/** Statuses of a nurture sequence; the CLI reads them, and the largest page, from src/api/generated/request-schemas.ts. */
export const NurtureStatus = z.enum(['draft', 'active', 'paused', 'archived']);

export const ListNurtureQuery = z.object({
  website_id: websiteIdField(),
  status: NurtureStatus.optional().describe('Only sequences with this status'),
  limit: z.number().int().min(1).max(200).default(50).describe('Page size'),
  offset: z.number().int().min(0).default(0).describe('Number of sequences to skip'),
});
export type ListNurtureQuery = z.infer<typeof ListNurtureQuery>;

export const NurtureSequence = z
  .looseObject({
    contentId: z.string(),
    title: z.string(),
    status: localEnum(documentedEnum(NurtureStatus.options)),
    stepCount: z.number().int(),
    createdAt: dateTime(),
    updatedAt: dateTime(),
  })
  .meta({ id: 'NurtureSequence', description: 'A nurture sequence with its number of steps' });
export type NurtureSequence = z.infer<typeof NurtureSequence>;

export const NurtureList = z
  .looseObject({
    sequences: z.array(NurtureSequence),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .meta({ id: 'NurtureSequenceList' });
export type NurtureList = z.infer<typeof NurtureList>;
