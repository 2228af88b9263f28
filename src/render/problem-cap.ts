import { UsageError } from '../errors.js';

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

/**
 * A usage error (exit 2) that lists problems (a plan's lines, a fixture's paths): under
 * --json the error object carries them too, capped like the text, `{"error", "code",
 * "status", "problems": [the first 20], "more": N}` (docs/cli-contract.md "Exit codes").
 */
export class ProblemsError extends UsageError {
  constructor(
    message: string,
    readonly listed: readonly Record<string, unknown>[],
  ) {
    super(message);
  }

  /** The fields the --json error adds. */
  jsonFields(): { problems: readonly Record<string, unknown>[]; more: number } {
    const { shown, more } = capped(this.listed);
    return { problems: shown, more };
  }
}
