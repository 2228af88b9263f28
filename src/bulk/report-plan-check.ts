import type { Context } from '../cli/context.js';
import { LocalError } from '../errors.js';
import type { PlanCheckError } from './load-plan.js';
import { escapeControls } from './escape.js';
import { annotationLines, escapeData, escapeProperty } from './report-github.js';
import { andMore, capped, LISTED_PROBLEMS } from '../render/problem-cap.js';
import { writeJunit, xml } from './report-junit.js';

/**
 * How a plan that failed its check is reported (docs/bulk-scheduling.md), on stderr: stdout
 * holds nothing of a refused run. Each problem once: at a terminal or in a log as
 * `FILE:LINE: message`; under GitHub Actions as one `::error file=…,line=…` annotation instead
 * (the runner shows it in the log as well), with a summary annotation first past 10. Either
 * way the first 20, then how many more. With --junit, a report with one failed test case per
 * bad line, every one.
 */
export async function reportPlanCheck(ctx: Context, err: PlanCheckError, junit?: string): Promise<void> {
  const name = escapeControls(err.file);
  const title = escapeProperty('cr posts schedule: plan check');
  const file = err.annotationFile ? `file=${escapeProperty(err.annotationFile)},` : '';
  if (ctx.env.GITHUB_ACTIONS === 'true') {
    const lines = annotationLines(
      err.problems.map((p) => `::error ${file}line=${p.line},title=${title}::${escapeData(escapeControls(p.message))}`),
      (n) =>
        `::error ${file}title=${title}::${escapeData(`${n} problems in ${name}; nothing was sent. The first ${Math.min(n, LISTED_PROBLEMS)} are annotated and in the log`)}`,
      (more) => `${name}: ${andMore(more)}`,
    );
    ctx.io.err.write(lines.map((l) => l + '\n').join(''));
  } else {
    const { shown, more } = capped(err.problems);
    ctx.io.err.write(shown.map((p) => `${name}:${p.line}: ${escapeControls(p.message)}\n`).join('') + (more ? `${name}: ${andMore(more)}\n` : ''));
  }
  if (!junit) return;
  const n = err.problems.length;
  const out = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="cr posts schedule" tests="${n}" failures="${n}" errors="0" skipped="0" time="0.000">`,
    `  <testsuite name="${xml(err.file)}" tests="${n}" failures="${n}" errors="0" skipped="0" time="0.000">`,
  ];
  for (const p of err.problems) {
    out.push(
      `    <testcase classname="cr.posts.schedule.plan" name="${xml(`${err.file}:${p.line}`)}" file="${xml(err.file)}" line="${p.line}">`,
      `      <failure message="${xml(p.message)}" type="PLAN_INVALID">${xml(`${err.file}:${p.line}: ${p.message}; nothing was sent`)}</failure>`,
      '    </testcase>',
    );
  }
  out.push('  </testsuite>', '</testsuites>', '');
  await writeJunit(junit, out.join('\n')).catch((e: unknown) => {
    throw new LocalError(`Cannot write the JUnit report ${junit}: ${(e as Error).message}`, 1, { cause: e, code: 'JUNIT_UNWRITABLE' });
  });
}
