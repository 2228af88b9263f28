/**
 * How many problems a list shows (a fixture's, a plan's): the first 20, then one line
 * `and N more problems` (docs/fixtures.md, docs/bulk-scheduling.md). Past a screenful the
 * rest repeat the same cause; the count says how many there are.
 */
export const LISTED_PROBLEMS = 20;

export function capped<T>(items: readonly T[], max = LISTED_PROBLEMS): { shown: readonly T[]; more: number } {
  return { shown: items.slice(0, max), more: Math.max(0, items.length - max) };
}

/** `and 33 more problems` */
export const andMore = (n: number) => `and ${n} more problem${n === 1 ? '' : 's'}`;
