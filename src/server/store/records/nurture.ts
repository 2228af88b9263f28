import * as z from 'zod';
import { NurtureSequence } from '../../../api/schemas/nurture.js';

/** Records of nurture sequences: the API's fields but the step count, with the steps themselves (docs/store-format.md). */
const { stepCount: _stepCount, ...nurtureShape } = NurtureSequence.shape;
export const NurtureRecord = z.looseObject({ ...nurtureShape, websiteId: z.string(), steps: z.array(z.unknown()) });

export const nurtureRecords = { nurture_sequences: NurtureRecord } as const;

export type NurtureRecord = z.infer<typeof NurtureRecord>;
