import type { Context } from '../../src/cli/context.js';
import type { FixtureProblem } from '../../src/server/ops/admin/fixtures.js';
import { escapeControls } from '../../src/render/escape.js';
import { redactKeys } from '../../src/config/redact.js';
import { andMore, capped, LISTED_PROBLEMS, ProblemsError } from '../../src/render/problem-cap.js';
import { annotationLines, escapeData, escapeProperty } from '../../src/bulk/report-github.js';

/**
 * How fixtures that failed their checks are reported (docs/fixtures.md), on stderr, each
 * problem once, the same rules as a plan's (src/bulk/report-plan-check.ts): `FILE: $.path:
 * message` lines, or under GitHub Actions one `::error file=…` annotation each (a summary
 * first past 10); the first 20, then how many more. A problem quotes the value it found: a
 * key pasted into a fixture is masked (docs/cli-contract.md §3). Returns the error to end
 * with, which lists the problems in a --json error too.
 */
export function reportFixtureProblems(ctx: Context, file: string, problems: readonly FixtureProblem[]): ProblemsError {
  const name = escapeControls(file === '-' ? '<stdin>' : file);
  const masked = problems.map((p) => ({ path: redactKeys(p.path), message: redactKeys(p.message) }));
  const text = (p: FixtureProblem) => `${escapeControls(p.path)}: ${escapeControls(p.message)}`;
  if (ctx.env.GITHUB_ACTIONS === 'true') {
    const fileProp = file === '-' ? '' : `file=${escapeProperty(file)},`;
    const title = escapeProperty('cr local seed');
    const lines = annotationLines(
      masked.map((p) => `::error ${fileProp}title=${title}::${escapeData(text(p))}`),
      (n) =>
        `::error ${fileProp}title=${title}::${escapeData(`${n} problems in ${name}; nothing was written. The first ${Math.min(n, LISTED_PROBLEMS)} are annotated and in the log`)}`,
      (more) => `${name}: ${andMore(more)}`,
    );
    ctx.io.err.write(lines.map((l) => l + '\n').join(''));
  } else {
    const { shown, more } = capped(masked);
    ctx.io.err.write(shown.map((p) => `${name}: ${text(p)}\n`).join('') + (more ? `${name}: ${andMore(more)}\n` : ''));
  }
  const n = problems.length;
  return new ProblemsError(
    `${name}: ${n} problem${n === 1 ? '' : 's'} in the fixtures; nothing was written`,
    masked.map((p) => ({ file: file === '-' ? '<stdin>' : file, ...p })),
  );
}
