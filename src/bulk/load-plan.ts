import { readFile } from 'node:fs/promises';
import type { IO } from '../io/streams.js';
import { readAll } from '../io/streams.js';
import { UsageError } from '../errors.js';
import { detectFormat, readCsv, readJsonl } from './read-plan.js';
import { checkRows } from './validate.js';
import { escapeControls } from './escape.js';
import type { PlanFormat, PlanRow } from './types.js';

export interface LoadedPlan {
  /** The name used in reports: the path as given, `<stdin>` for `-`. */
  file: string;
  /** The path for GitHub annotations (none for stdin). */
  annotationFile?: string;
  format: PlanFormat;
  rows: PlanRow[];
  duplicates: number;
}

/**
 * Reads and checks the whole plan before anything is sent (docs/cli-contract.md): every bad row is
 * reported as `FILE:LINE: message` on stderr, then a usage error (exit 2).
 */
export async function loadPlan(io: IO, from: string, now: Date, format?: PlanFormat): Promise<LoadedPlan> {
  const stdin = from === '-';
  const file = stdin ? '<stdin>' : from;
  let text: string;
  try {
    text = stdin ? await readAll(io.stdin) : await readFile(from, 'utf8');
  } catch (err) {
    throw new UsageError(`Cannot read ${escapeControls(file)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  const fmt = detectFormat(stdin ? '' : from, text, format);
  const read = fmt === 'csv' ? await readCsv(text) : readJsonl(text);
  const checked = checkRows(read.rows, now);
  const problems = [...read.problems, ...checked.problems].sort((a, b) => a.line - b.line);
  if (problems.length) {
    const name = escapeControls(file);
    io.err.write(problems.map((p) => `${name}:${p.line}: ${escapeControls(p.message)}\n`).join(''));
    const n = problems.length;
    throw new UsageError(`${name}: ${n} problem${n === 1 ? '' : 's'} in the plan; nothing was sent`);
  }
  return { file, annotationFile: stdin ? undefined : from, format: fmt, rows: checked.rows, duplicates: checked.duplicates };
}
