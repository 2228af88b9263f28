import * as z from 'zod';
import { calendarDate, websiteIdField } from './common.js';

export const GRID_SIZE = 9;
export const GRID_POINTS = GRID_SIZE * GRID_SIZE;

export const VisibilityQuery = z.object({
  website_id: websiteIdField(),
  keyword: z.string().min(1).max(500).optional().describe('Only this tracked keyword (exact, case-insensitive)'),
});
export type VisibilityQuery = z.infer<typeof VisibilityQuery>;

export const GridPoint = z
  .looseObject({ lat: z.number(), lng: z.number(), rank: z.number().nullable().describe('1 to 20, or null where the business does not rank') })
  .meta({ id: 'GridPoint' });
export type GridPoint = z.infer<typeof GridPoint>;
export const VisibilityKeyword = z
  .looseObject({ keyword: z.string(), gridPoints: z.array(GridPoint).describe('81 points: 9x9 within 25 miles of the business') })
  .meta({ id: 'VisibilityKeyword', description: 'The rank grid of one tracked keyword' });
export type VisibilityKeyword = z.infer<typeof VisibilityKeyword>;

export const Visibility = z
  .looseObject({
    keywords: z.array(VisibilityKeyword),
    scanDate: calendarDate().nullable().describe('Date of the latest scan; null when there is none'),
  })
  .meta({ id: 'VisibilityGrid', description: 'The latest visibility scan of the business profile' });
export type Visibility = z.infer<typeof Visibility>;
