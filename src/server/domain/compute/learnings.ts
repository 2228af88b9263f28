import { Learning } from '../../../api/schemas/intelligence.js';
import type { LearningsList } from '../../../api/schemas/intelligence.js';
import type { LearningRecord } from '../../store/schema.js';
import { pickShape, timeOf } from './pick.js';

/** GET /intelligence/learnings (docs/api-decisions.md §6): confirmed with ≥ 2 evidence, best first. */
export function listLearnings(
  records: readonly LearningRecord[],
  q: { websiteIds: ReadonlySet<string>; dimensionType?: string; limit: number },
): LearningsList {
  const matches = records
    .filter(
      (l) =>
        q.websiteIds.has(l.websiteId) &&
        l.status === 'confirmed' &&
        l.evidenceCount >= 2 &&
        (q.dimensionType === undefined || l.dimensionType === q.dimensionType),
    )
    .sort((a, b) => b.confidenceScore - a.confidenceScore || timeOf(b.createdAt) - timeOf(a.createdAt));
  return { learnings: matches.slice(0, q.limit).map((l) => pickShape<Learning>(Learning, l)), total: matches.length };
}
