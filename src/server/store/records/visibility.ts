import * as z from 'zod';
import { VisibilityKeyword } from '../../../api/schemas/visibility.js';

/** Records of visibility scans: one per website and day, its keywords as the API has them (docs/store-format.md). */
export const VisibilityScanRecord = z.looseObject({
  websiteId: z.string(),
  scanDate: z.string(),
  keywords: z.array(VisibilityKeyword),
});

export const visibilityRecords = { visibility_scans: VisibilityScanRecord } as const;

export type VisibilityScanRecord = z.infer<typeof VisibilityScanRecord>;
