import { writeFile } from 'node:fs/promises';
import { escapeControls } from './escape.js';
import type { Counts } from './outcome.js';
import type { RowResult } from './types.js';

/** What XML 1.0 allows besides controls: no U+FFFE, U+FFFF, nor a lone surrogate (`Char`). */
const NOT_XML_CHAR = /[\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * XML text: the five entities, and control characters (most are not even allowed in
 * XML 1.0) written as `\xNN`, the other characters XML forbids as `\uNNNN`.
 */
export const xml = (s: string) =>
  escapeControls(s)
    .replace(NOT_XML_CHAR, (c) => '\\u' + c.charCodeAt(0).toString(16).padStart(4, '0'))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');

/**
 * A JUnit XML report (the de facto schema CI servers read: testsuites > testsuite with
 * tests/failures/errors/skipped > testcase, <failure message> or <skipped/>), one
 * testcase per row. Rows not sent count as skipped, with the reason as the message.
 */
export function junitXml(file: string, results: readonly RowResult[], counts: Counts, seconds: number): string {
  const sorted = [...results].sort((a, b) => a.row.line - b.row.line);
  const skipped = counts.skipped + counts.not_sent;
  const total = sorted.length;
  const time = seconds.toFixed(3);
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="cr posts schedule" tests="${total}" failures="${counts.failed}" errors="0" skipped="${skipped}" time="${time}">`,
    `  <testsuite name="${xml(file)}" tests="${total}" failures="${counts.failed}" errors="0" skipped="${skipped}" time="${time}">`,
  ];
  for (const r of sorted) {
    const open = `    <testcase classname="cr.posts.schedule" name="${xml(`${file}:${r.row.line} ${r.row.id}`)}" file="${xml(file)}" line="${r.row.line}"`;
    if (r.status === 'scheduled') out.push(`${open}/>`);
    else if (r.status === 'skipped')
      out.push(`${open}>`, `      <skipped message="already scheduled at ${xml(r.scheduledAt ?? r.row.wire)} (state file)"/>`, '    </testcase>');
    else if (r.status === 'not_sent') out.push(`${open}>`, `      <skipped message="${xml(`not sent: ${r.error ?? ''}`)}"/>`, '    </testcase>');
    else {
      const message = `${r.error ?? 'failed'}${r.code ? ` (${r.code})` : ''}`;
      out.push(
        `${open}>`,
        `      <failure message="${xml(message)}" type="${xml(r.code ?? 'ERROR')}">${xml(`${r.row.id} at ${r.row.wire}: ${message}; exit ${r.exit ?? 1}`)}</failure>`,
        '    </testcase>',
      );
    }
  }
  out.push('  </testsuite>', '</testsuites>', '');
  return out.join('\n');
}

export const writeJunit = (path: string, text: string) => writeFile(path, text, 'utf8');
