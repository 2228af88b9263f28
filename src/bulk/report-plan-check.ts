import type { Context } from '../context.js';
import { LocalError } from '../errors.js';
import type { PlanCheckError } from './load-plan.js';
import { escapeControls } from './escape.js';
import { escapeData, escapeProperty } from './report-github.js';
import { writeJunit, xml } from './report-junit.js';

/**
 * The CI outputs of a plan that failed its check (docs/cli-contract.md "For CI jobs"), the
 * same as a run's failed rows get: under GitHub Actions one `::error file=…,line=…`
 * annotation per bad line (on stderr: the `FILE:LINE:` lines are there too, and stdout holds
 * nothing of a refused run), and with --junit a report with one failed test case per bad line.
 */
export async function reportPlanCheck(ctx: Context, err: PlanCheckError, junit?: string): Promise<void> {
  const title = escapeProperty('cr posts schedule: plan check');
  if (ctx.env.GITHUB_ACTIONS === 'true') {
    for (const p of err.problems) {
      const props = [err.annotationFile ? `file=${escapeProperty(err.annotationFile)}` : '', `line=${p.line}`, `title=${title}`].filter(Boolean).join(',');
      ctx.io.err.write(`::error ${props}::${escapeData(escapeControls(p.message))}\n`);
    }
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
