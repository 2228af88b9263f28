import type { PlanFormat, PlanProblem } from './types.js';
import { clipped, quotedList } from './echo.js';

/** A record as read from the file, before its values are checked. */
export interface RawRow {
  line: number;
  fields: Record<string, string>;
}

export interface ReadResult {
  rows: RawRow[];
  problems: PlanProblem[];
}

export const COLUMNS = ['id', 'at', 'website_id'] as const;
const REQUIRED = ['id', 'at'];

/**
 * The plan's format: `--format` when given, else the extension (.csv, .jsonl, .ndjson),
 * else sniffed from the first non-blank character (`{` is JSON Lines; a CSV header cannot
 * start with one). Stdin has no extension, so it is sniffed the same way.
 */
export function detectFormat(file: string, text: string, given?: PlanFormat): PlanFormat {
  if (given) return given;
  const ext = /\.([a-z]+)$/i.exec(file)?.[1]?.toLowerCase();
  if (ext === 'csv') return 'csv';
  if (ext === 'jsonl' || ext === 'ndjson') return 'jsonl';
  return text.trimStart().startsWith('{') ? 'jsonl' : 'csv';
}

/**
 * CSV with a header row (RFC 4180 via csv-parse, loaded only here). Line numbers are
 * physical (counted by LF) and name the line a record starts on: csv-parse's `info.lines`
 * counts a CR inside a quoted field as a line of its own, so the start is found from
 * `info.bytes` instead (where the previous record ended, past blank lines). A structural
 * error (an unclosed quote) stops the reading: what follows it cannot be trusted to be
 * split into the same records.
 */
export async function readCsv(text: string): Promise<ReadResult> {
  const { parse } = await import('csv-parse');
  const problems: PlanProblem[] = [];
  const records: { record: string[]; line: number }[] = [];
  const starts = recordStarts(Buffer.from(text, 'utf8'));
  await new Promise<void>((resolve) => {
    const parser = parse({ bom: true, info: true, relax_column_count: true, skip_empty_lines: true, trim: true });
    parser.on('data', (r: { record: string[]; info: { bytes: number } }) => {
      records.push({ record: r.record, line: starts(r.info.bytes) });
    });
    parser.on('error', (err: Error & { code?: string; lines?: number }) => {
      // csv-parse names the line where the reading ended (after any blank lines or a CRLF), not the quote.
      const open = err.code === 'CSV_QUOTE_NOT_CLOSED' ? unclosedQuoteLine(text) : undefined;
      if (open !== undefined) problems.push({ line: open, message: 'a quote opened on this line is never closed; the rest of the file was not checked' });
      else problems.push({ line: err.lines ?? parser.info.lines, message: `${clipped(err.message)}; the rest of the file was not checked` });
      resolve();
    });
    parser.on('end', () => resolve());
    parser.end(text);
  });
  const [header, ...body] = records;
  if (!header) {
    if (problems.length === 0) problems.push({ line: 1, message: 'empty file: expected a header row id,at[,website_id]' });
    return { rows: [], problems };
  }
  const names = header.record.map((h) => h.toLowerCase());
  const unknown = names.filter((n) => !(COLUMNS as readonly string[]).includes(n));
  const missing = REQUIRED.filter((r) => !names.includes(r));
  // An unknown name said twice is already "unknown" (and quoted, cut, there).
  const repeated = names.filter((n, i) => (COLUMNS as readonly string[]).includes(n) && names.indexOf(n) !== i);
  if (unknown.length || missing.length || repeated.length) {
    const parts = [
      missing.length ? `missing ${missing.join(', ')}` : '',
      unknown.length ? `unknown ${quotedList(unknown)}` : '',
      repeated.length ? `repeated ${repeated.join(', ')}` : '',
    ].filter(Boolean);
    problems.unshift({ line: header.line, message: `the header must be id,at[,website_id] (${parts.join('; ')})` });
    return { rows: [], problems };
  }
  const rows: RawRow[] = [];
  for (const r of body) {
    if (r.record.length !== names.length) {
      problems.push({ line: r.line, message: `expected ${names.length} fields (${names.join(',')}), got ${r.record.length}` });
      continue;
    }
    const fields: Record<string, string> = {};
    for (const [i, n] of names.entries()) fields[n] = r.record[i]!;
    rows.push({ line: r.line, fields });
  }
  return { rows, problems };
}

/**
 * Called with each record's end (csv-parse's `info.bytes`, past its delimiter), in order: the
 * line the record started on, the first after the previous record that is not blank.
 */
function recordStarts(bytes: Buffer): (end: number) => number {
  let from = 0;
  let line = 1;
  return (end) => {
    let start = from;
    while (start < end && (bytes[start] === 0x0a || bytes[start] === 0x0d)) start++;
    for (let i = from; i < start; i++) if (bytes[i] === 0x0a) line++;
    const at = line;
    for (let i = start; i < end; i++) if (bytes[i] === 0x0a) line++;
    from = end;
    return at;
  };
}

/**
 * The physical line of the quote left open at the end of `text`, read as RFC 4180 with
 * csv-parse's `trim` (a field may start with blanks before its quote); undefined if none.
 */
export function unclosedQuoteLine(text: string): number | undefined {
  let line = 1;
  let openedAt: number | undefined;
  let fieldStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (openedAt !== undefined) {
      if (c === '"' && text[i + 1] === '"') i++;
      else if (c === '"') openedAt = undefined;
    } else if (c === '"' && fieldStart) openedAt = line;
    if (c === '\n') line++;
    if (openedAt === undefined) fieldStart = c === ',' || c === '\n' || c === '\r' || (fieldStart && (c === ' ' || c === '\t' || c === '\uFEFF'));
  }
  return openedAt;
}

/** JSON Lines: one object a line (`{"id","at","website_id"?}`); blank lines are skipped. */
export function readJsonl(text: string): ReadResult {
  const rows: RawRow[] = [];
  const problems: PlanProblem[] = [];
  const lines = text.replace(/^\uFEFF/, '').split('\n');
  lines.forEach((raw, i) => {
    const line = i + 1;
    const source = raw.replace(/\r$/, '');
    if (source.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch (err) {
      problems.push({ line, message: `not JSON: ${clipped((err as Error).message)}` });
      return;
    }
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      problems.push({ line, message: 'expected a JSON object {"id","at","website_id"?}' });
      return;
    }
    const fields: Record<string, string> = {};
    const bad: string[] = [];
    const unknown: string[] = [];
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (!(COLUMNS as readonly string[]).includes(k)) unknown.push(k);
      else if (typeof v === 'string') fields[k] = v;
      else if (!(k === 'website_id' && v === null)) bad.push(`${k} must be a string`);
    }
    // Named a few at most (echo.ts): an object of a million unknown keys is still one short line.
    if (unknown.length) bad.unshift(`unknown field${unknown.length === 1 ? '' : 's'} ${quotedList(unknown)}`);
    if (bad.length) problems.push({ line, message: bad.join('; ') });
    else rows.push({ line, fields });
  });
  if (rows.length === 0 && problems.length === 0) problems.push({ line: 1, message: 'empty file: expected one JSON object a line' });
  return { rows, problems };
}
