import { appendFile } from 'node:fs/promises';
import { escapeControls } from './escape.js';
import type { Counts } from './outcome.js';
import { summaryLine } from './outcome.js';
import type { RowResult } from './types.js';
import { capped } from '../render/problem-cap.js';

/**
 * GitHub Actions workflow commands (docs.github.com, "Workflow commands for GitHub
 * Actions"; the escaping is @actions/core's): data escapes %, CR and LF; property values
 * also `:` and `,`.
 */
export const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
/** A property (file=, title=) may hold a plan's path: its control characters shown as `\xNN`, as in the message. */
export const escapeProperty = (s: string) => escapeData(escapeControls(s)).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** `::error file=plan.csv,line=4::message` for a failed row (no file= for stdin). */
export function annotation(file: string | undefined, r: RowResult): string {
  const props = [file ? `file=${escapeProperty(file)}` : '', `line=${r.row.line}`, `title=${escapeProperty(`cr posts schedule: ${r.row.id}`)}`]
    .filter(Boolean)
    .join(',');
  const message = escapeControls(`${r.row.id}: ${r.error ?? 'failed'}${r.code ? ` (${r.code})` : ''}`);
  return `::error ${props}::${escapeData(message)}`;
}

/**
 * GitHub shows 10 error annotations per step (docs.github.com, "Workflow commands": the
 * limits of annotations); the rest are in the log only.
 */
export const SHOWN_ANNOTATIONS = 10;

/**
 * The workflow commands for a list of problems: one `::error` each for the first 20 (the
 * cap of every problem list, src/render/problem-cap.ts); past 10 a summary `::error` comes first, so
 * the count is among the annotations GitHub shows; past 20 a log line says how many more.
 */
export function annotationLines(each: readonly string[], summary: (total: number) => string, moreLine: (more: number) => string): string[] {
  const { shown, more } = capped(each);
  return [...(each.length > SHOWN_ANNOTATIONS ? [summary(each.length)] : []), ...shown, ...(more ? [moreLine(more)] : [])];
}

/** A markdown cell: one line, no pipes, no HTML, no control characters. */
const cell = (s: string) => escapeControls(s).replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Past this many rows the summary lists only the rows that were not scheduled. */
const FULL_TABLE_ROWS = 500;

/** The markdown appended to $GITHUB_STEP_SUMMARY. */
export function stepSummary(file: string, results: readonly RowResult[], counts: Counts): string {
  const sorted = [...results].sort((a, b) => a.row.line - b.row.line);
  const shown = sorted.length > FULL_TABLE_ROWS ? sorted.filter((r) => r.status !== 'scheduled' && r.status !== 'skipped') : sorted;
  const lines = [`### cr posts schedule ${cell(file)}`, '', summaryLine(counts), ''];
  if (shown.length < sorted.length) lines.push(`Only the ${shown.length} rows that were not scheduled are listed.`, '');
  if (shown.length) {
    lines.push('| Line | ID | At | Status | Detail |', '|---:|---|---|---|---|');
    for (const r of shown) {
      const d = r.status === 'scheduled' || r.status === 'skipped' ? (r.scheduledAt ?? r.row.wire) : `${r.error ?? ''}${r.code ? ` (${r.code})` : ''}`;
      lines.push(`| ${r.row.line} | ${cell(r.row.id)} | ${cell(r.row.wire)} | ${r.status} | ${cell(d)} |`);
    }
  }
  return lines.join('\n') + '\n\n';
}

export async function appendStepSummary(path: string, markdown: string): Promise<void> {
  await appendFile(path, markdown, 'utf8');
}
