import type { Context } from '../cli/context.js';
import type { LoadedPlan } from './load-plan.js';
import type { Counts } from './outcome.js';
import type { RowResult } from './types.js';
import { annotation, annotationLines, appendStepSummary, escapeData, escapeProperty, stepSummary } from './report-github.js';
import { LISTED_PROBLEMS } from '../render/problem-cap.js';
import { escapeControls } from './escape.js';
import { junitXml, writeJunit } from './report-junit.js';
import { LocalError } from '../errors.js';

export interface CiReport {
  plan: LoadedPlan;
  results: RowResult[];
  counts: Counts;
  json: boolean;
  junit?: string;
  seconds: number;
}

/**
 * The CI outputs of a finished run. GitHub Actions (`GITHUB_ACTIONS=true`): one `::error`
 * annotation per failed row, the first 20, with a summary first past 10 (annotationLines).
 * GitHub documents workflow commands on stdout, so they go there; with --json stdout holds only the JSON lines, and the commands go to stderr,
 * which the runner also scans for commands in a `run` step. Then the markdown table in
 * $GITHUB_STEP_SUMMARY, and `--junit FILE` for other CIs.
 */
/** The rows reportCi annotates: the failed ones, in file order, the first 20. */
const annotatedRows = (results: readonly RowResult[]) =>
  results
    .filter((x) => x.status === 'failed')
    .sort((a, b) => a.row.line - b.row.line)
    .slice(0, LISTED_PROBLEMS);

/** The results without the rows that get an annotation (they are in the log as that). */
export function withoutAnnotated(results: readonly RowResult[]): RowResult[] {
  const annotated = new Set(annotatedRows(results));
  return results.filter((r) => !annotated.has(r));
}

export async function reportCi(ctx: Context, r: CiReport): Promise<void> {
  const env = ctx.env;
  if (env.GITHUB_ACTIONS === 'true') {
    const failed = r.results.filter((x) => x.status === 'failed').sort((a, b) => a.row.line - b.row.line);
    const sink = r.json ? ctx.io.err : ctx.io.out;
    const name = escapeControls(r.plan.file);
    const lines = annotationLines(
      failed.map((row) => annotation(r.plan.annotationFile, row)),
      (n) =>
        `::error ${r.plan.annotationFile ? `file=${escapeProperty(r.plan.annotationFile)},` : ''}title=${escapeProperty('cr posts schedule')}::${escapeData(`${n} rows of ${name} failed; the first ${Math.min(n, LISTED_PROBLEMS)} are annotated, every row is in the step summary`)}`,
      (more) => `${name}: and ${more} more failed row${more === 1 ? '' : 's'}`,
    );
    for (const line of lines) sink.write(line + '\n');
    if (env.GITHUB_STEP_SUMMARY) {
      await appendStepSummary(env.GITHUB_STEP_SUMMARY, stepSummary(r.plan.file, r.results, r.counts)).catch((err: unknown) => {
        ctx.notice(`cr: could not append to $GITHUB_STEP_SUMMARY: ${(err as Error).message}`);
      });
    }
  }
  if (r.junit) {
    await writeJunit(r.junit, junitXml(r.plan.file, r.results, r.counts, r.seconds)).catch((err: unknown) => {
      throw new LocalError(`Cannot write the JUnit report ${r.junit}: ${(err as Error).message}`, 1, { cause: err, code: 'JUNIT_UNWRITABLE' });
    });
  }
}
