import type { Visibility } from '../../../api/schemas/visibility.js';
import type { VisibilityScanRecord } from '../../store/schema.js';
import { timeOf } from './pick.js';

/** GET /gbp/visibility (docs/api-decisions.md §6): the website's latest scan, optionally one keyword. */
export function visibility(scans: readonly VisibilityScanRecord[], q: { websiteId: string; keyword?: string }): Visibility {
  let latest: VisibilityScanRecord | undefined;
  for (const s of scans) {
    if (s.websiteId !== q.websiteId) continue;
    if (!latest || timeOf(s.scanDate) > timeOf(latest.scanDate)) latest = s;
  }
  if (!latest) return { keywords: [], scanDate: null };
  const wanted = q.keyword?.toLowerCase();
  return {
    keywords: latest.keywords
      .filter((k) => wanted === undefined || k.keyword.toLowerCase() === wanted)
      .map((k) => ({
        keyword: k.keyword,
        gridPoints: k.gridPoints.map((p) => ({ lat: p.lat, lng: p.lng, rank: p.rank ?? null })),
      })),
    scanDate: latest.scanDate,
  };
}
