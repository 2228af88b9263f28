import type { NurtureList, NurtureSequence } from '../../api/schemas/nurture.js';
import type { NurtureRecord } from '../store/schema.js';
import { timeOf } from './pick.js';

/** GET /content/nurture-sequences (decisions.md §6): newest update first, paged. */
export function listNurture(
  records: readonly NurtureRecord[],
  q: { websiteIds: ReadonlySet<string>; status?: string; limit: number; offset: number },
): NurtureList {
  const matches = records
    .filter((s) => q.websiteIds.has(s.websiteId) && (q.status === undefined || s.status === q.status))
    .sort((a, b) => timeOf(b.updatedAt) - timeOf(a.updatedAt) || (a.contentId < b.contentId ? -1 : a.contentId > b.contentId ? 1 : 0));
  const sequences: NurtureSequence[] = matches.slice(q.offset, q.offset + q.limit).map((s) => ({
    contentId: s.contentId,
    title: s.title,
    status: s.status,
    stepCount: s.steps.length,
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
  }));
  return { sequences, total: matches.length, limit: q.limit, offset: q.offset };
}
