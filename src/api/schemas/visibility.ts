import { z } from 'zod';
import { websiteIdField } from './common.js';

export const GRID_SIZE = 9;
export const GRID_POINTS = GRID_SIZE * GRID_SIZE;

export const VisibilityQuery = z.object({
  website_id: websiteIdField(),
  keyword: z.string().min(1).max(500).optional().describe('Only this tracked keyword (exact, case-insensitive)'),
});
export type VisibilityQuery = z.infer<typeof VisibilityQuery>;

export const GridPoint = z.looseObject({ lat: z.number(), lng: z.number(), rank: z.number().nullable() });
export type GridPoint = z.infer<typeof GridPoint>;
export const VisibilityKeyword = z.looseObject({ keyword: z.string(), gridPoints: z.array(GridPoint) });
export type VisibilityKeyword = z.infer<typeof VisibilityKeyword>;

export const Visibility = z.looseObject({
  keywords: z.array(VisibilityKeyword),
  scanDate: z.string().nullable(),
});
export type Visibility = z.infer<typeof Visibility>;
