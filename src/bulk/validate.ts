import { parseWhen, requireFuture, wireTime } from '../when.js';
import { UsageError } from '../errors.js';
import { UUID_PATTERN } from '../api/vocabulary.js';
import type { RawRow } from './read-plan.js';
import { ECHO_CHARS, quoted } from './echo.js';
import type { PlanProblem, PlanRow } from './types.js';

/** The API's id format (src/api/vocabulary.ts); checked here so a typo costs no request. */
const UUID = UUID_PATTERN;

export interface CheckedPlan {
  rows: PlanRow[];
  problems: PlanProblem[];
  /** Lines dropped as exact duplicates of an earlier row (same id, time and website). */
  duplicates: number;
}

/** parseWhen's messages speak of the `--at` flag; in a file the column is `at`. */
const atMessage = (err: unknown) => (err instanceof UsageError ? err.message.replace(/^--at /, 'at ').replace(/--at must/, 'at must') : String(err));

/**
 * Checks every row (docs/cli-contract.md: the whole file before anything is sent): id is a uuid, `at`
 * is what `--at` accepts and in the future, website_id a uuid when given. The same id
 * twice with different times (or websites) is reported on both lines; an exact duplicate
 * counts once.
 */
export function checkRows(raw: RawRow[], now: Date): CheckedPlan {
  const problems: PlanProblem[] = [];
  const rows: PlanRow[] = [];
  const byId = new Map<string, PlanRow>();
  const conflicted = new Set<string>();
  let duplicates = 0;
  for (const { line, fields } of raw) {
    const messages: string[] = [];
    const id = (fields.id ?? '').trim();
    const at = (fields.at ?? '').trim();
    const websiteId = fields.website_id?.trim() || undefined;
    if (!id) messages.push('id is empty');
    else if (!UUID.test(id)) messages.push(`id ${quoted(id)} is not a uuid`);
    let when: Date | undefined;
    if (!at) messages.push('at is empty');
    // parseWhen's messages quote the value whole; no date-time is this long.
    else if (at.length > ECHO_CHARS) messages.push(`at must be an ISO 8601 date-time (2026-12-01T09:00:00Z) or +30m, +2h, +1d; got ${quoted(at)}`);
    else {
      try {
        when = requireFuture(parseWhen(at, now), now, at);
      } catch (err) {
        messages.push(atMessage(err));
      }
    }
    if (websiteId !== undefined && !UUID.test(websiteId)) messages.push(`website_id ${quoted(websiteId)} is not a uuid`);
    if (messages.length || !when) {
      problems.push({ line, message: messages.join('; ') });
      continue;
    }
    const row: PlanRow = { line, id: id.toLowerCase(), at, when, wire: wireTime(at, when), ...(websiteId ? { websiteId } : {}) };
    const first = byId.get(row.id);
    if (first) {
      if (first.when.getTime() === row.when.getTime() && first.websiteId === row.websiteId) {
        duplicates++;
        continue;
      }
      if (!conflicted.has(row.id)) {
        conflicted.add(row.id);
        problems.push({ line: first.line, message: `id ${row.id} appears again on line ${line} with a different time or website` });
      }
      problems.push({ line, message: `id ${row.id} is already on line ${first.line} with a different time or website (${first.at})` });
      continue;
    }
    byId.set(row.id, row);
    rows.push(row);
  }
  problems.sort((a, b) => a.line - b.line);
  return { rows: rows.filter((r) => !conflicted.has(r.id)), problems, duplicates };
}
