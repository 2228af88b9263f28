import * as z from 'zod';
import { Learning } from '../../../api/schemas/intelligence.js';

/** Records of learnings: the API's fields and their website (docs/store-format.md). */
export const LearningRecord = z.looseObject({ ...Learning.shape, websiteId: z.string() });

export const intelligenceRecords = { learnings: LearningRecord } as const;

export type LearningRecord = z.infer<typeof LearningRecord>;
