import type { NurtureList, NurtureSequence } from '../../../api/schemas/nurture.js';
import type { NurtureRecord } from '../../store/schema.js';
import { timeOf } from './pick.js';

/**
 * The sequences one list shows, newest update first (docs/api-decisions.md §6), before paging. Kept
 * per store generation by the caller, so walking a long list page by page sorts it once
 * (a 100,000-sequence store: ~3 s a sort), not once per page. Times are parsed once each.
 */
export function sortedNurture(records: readonly NurtureRecord[], q: { websiteIds: ReadonlySet<string>; status?: string }): readonly NurtureRecord[] {
  return records
    .filter((s) => q.websiteIds.has(s.websiteId) && (q.status === undefined || s.status === q.status))
    .map((s) => ({ s, t: timeOf(s.updatedAt) }))
    .sort((a, b) => b.t - a.t || (a.s.contentId < b.s.contentId ? -1 : a.s.contentId > b.s.contentId ? 1 : 0))
    .map((x) => x.s);
}

/** One page of a sorted list: GET /content/nurture-sequences. */
export function nurturePage(matches: readonly NurtureRecord[], q: { limit: number; offset: number }): NurtureList {
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

/** GET /content/nurture-sequences (docs/api-decisions.md §6): newest update first, paged. */
export function listNurture(
  records: readonly NurtureRecord[],
  q: { websiteIds: ReadonlySet<string>; status?: string; limit: number; offset: number },
): NurtureList {
  return nurturePage(sortedNurture(records, q), q);
}
