import { open } from 'node:fs/promises';
import type { IO } from '../io/streams.js';
import { UsageError } from '../errors.js';
import { detectFormat, readCsv, readJsonl } from './read-plan.js';
import { checkRows } from './validate.js';
import { escapeControls } from './escape.js';
import { redactKeys } from '../config/redact.js';
import { ProblemsError } from '../render/problem-cap.js';
import type { PlanFormat, PlanProblem, PlanRow } from './types.js';

/**
 * The plan did not pass its check: a usage error (exit 2) that carries every bad line, for CI
 * reports. Every report (lines, annotations, JUnit, --json) reads the problems from here, so
 * an API key quoted in one is masked here, once (docs/cli-contract.md §3).
 */
export class PlanCheckError extends ProblemsError {
  readonly problems: readonly PlanProblem[];
  constructor(
    message: string,
    readonly file: string,
    readonly annotationFile: string | undefined,
    problems: readonly PlanProblem[],
  ) {
    const masked = problems.map((p) => ({ line: p.line, message: redactKeys(p.message) }));
    super(
      redactKeys(message),
      masked.map((p) => ({ file, ...p })),
    );
    this.problems = masked;
  }
}

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
 * The largest plan read, from a file or stdin: 64 MiB, about 700,000 rows of `id,at,website_id`
 * and far past any CI plan. A plan is read whole before anything is sent, so without a cap a
 * runaway pipe into `--from -` would grow the process without bound.
 */
export const MAX_PLAN_BYTES = 64 * 1024 * 1024;

/** The stream's text, or undefined once it passes `cap` bytes (it is not read further). */
async function readUpTo(stream: NodeJS.ReadableStream, cap: number): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buf.length;
    if (size > cap) return undefined;
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** A file's text, or undefined when it is larger than `cap` (a regular file's size is seen before reading). */
async function readFileUpTo(path: string, cap: number): Promise<string | undefined> {
  const fh = await open(path, 'r');
  try {
    const st = await fh.stat();
    if (st.isFile() && st.size > cap) return undefined;
    return await readUpTo(fh.createReadStream({ autoClose: false }), cap);
  } finally {
    await fh.close();
  }
}

/**
 * Reads and checks the whole plan before anything is sent (docs/cli-contract.md): every bad row
 * is in the PlanCheckError thrown (a usage error, exit 2), which reportPlanCheck prints.
 */
export async function loadPlan(io: IO, from: string, now: Date, format?: PlanFormat): Promise<LoadedPlan> {
  const stdin = from === '-';
  const file = stdin ? '<stdin>' : from;
  let text: string | undefined;
  try {
    text = stdin ? await readUpTo(io.stdin, MAX_PLAN_BYTES) : await readFileUpTo(from, MAX_PLAN_BYTES);
  } catch (err) {
    throw new UsageError(`Cannot read ${escapeControls(file)}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  if (text === undefined)
    throw new UsageError(
      `${escapeControls(file)} is larger than ${MAX_PLAN_BYTES / (1024 * 1024)} MiB, the most a plan may be; nothing was sent`,
      'split it into smaller plans',
    );
  const fmt = detectFormat(stdin ? '' : from, text, format);
  const read = fmt === 'csv' ? await readCsv(text) : readJsonl(text);
  const checked = checkRows(read.rows, now);
  const problems = [...read.problems, ...checked.problems].sort((a, b) => a.line - b.line);
  if (problems.length) {
    // Reported by the caller (src/bulk/report-plan-check.ts): as lines, or as annotations in Actions.
    const name = escapeControls(file);
    const n = problems.length;
    throw new PlanCheckError(`${name}: ${n} problem${n === 1 ? '' : 's'} in the plan; nothing was sent`, file, stdin ? undefined : from, problems);
  }
  return { file, annotationFile: stdin ? undefined : from, format: fmt, rows: checked.rows, duplicates: checked.duplicates };
}
