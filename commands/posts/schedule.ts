import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { withExamples } from '../../src/cli/options.js';
import { checkUuid } from '../../src/ids.js';
import { UsageError } from '../../src/errors.js';
import { scriptable } from '../../src/output/flags.js';
import { routes } from '../../src/api/routes.js';
import type { ScheduledPost } from '../../src/api/schemas/social.js';
import { printDryRun } from '../../src/cli/dry-run.js';
import { websiteParam } from '../../src/http/request-params.js';
import { parseWhen, requireFuture, wireTime } from '../../src/when.js';
import { render } from '../../src/render/output.js';
import { dateColumn, shownTime } from '../../src/render/dates.js';
import { addScheduleFromOptions, scheduleFrom, singleForm, type ScheduleFromFlags } from './schedule-from.js';

export const scheduleCommand = (ctx: Context) =>
  scriptable(
    withExamples(
      addScheduleFromOptions(
        new Command('schedule')
          .description('schedule a draft post (or reschedule a scheduled one); --from FILE schedules many')
          .argument('[id]', 'social post id (uuid)')
          .option('--at <when>', 'required with <id>: ISO 8601 date-time with Z or an offset, or +30m, +2h, +1d from now')
          .option('--dry-run', 'print the request and send nothing'),
      ).action((id: string | undefined, f: ScheduleFromFlags) =>
        f.from !== undefined ? scheduleFrom(ctx, id, noScriptFlags(ctx, f)) : schedule(ctx, singleForm(id, f)),
      ),
      [
        'cr posts schedule 3b2f8c1d-6e4a-4f7b-a2d9-1c5e8b7f0e91 --at +2h',
        'cr posts schedule 3b2f8c1d-6e4a-4f7b-a2d9-1c5e8b7f0e91 --at 2026-12-01T09:00:00Z --json',
        'cr posts schedule --from posts.csv --state .cr-state.jsonl --junit report.xml',
      ],
    ),
    { jq: true, csv: true, quiet: true },
  );

export async function schedule(ctx: Context, o: { id: string; at: string; dryRun: boolean }): Promise<void> {
  checkUuid('the post id', o.id);
  const now = ctx.now();
  // Refused before anything is sent: a past time would only come back as a 400.
  const at = requireFuture(parseWhen(o.at, now), now, o.at);
  const ep = routes.scheduleSocialPost;
  const input = { params: { id: o.id }, query: websiteParam(ctx), body: { scheduled_at: wireTime(o.at, at) } };
  if (o.dryRun) return printDryRun(ctx, ep, input);
  const res = await (await ctx.api()).call(ep, input);
  await render(
    ctx.io,
    { ...ctx.globals, data: res.raw },
    {
      rows: [res.data],
      // The record just made or changed: its id is what the next command takes, whole at any width.
      keepIds: true,
      id: (p) => p.id,
      columns: [
        { header: 'ID', kind: 'id', field: 'id', value: (p: ScheduledPost) => p.id },
        { header: 'STATUS', kind: 'code', field: 'status', value: (p) => p.status, style: (t, _p, s) => s.green(t) },
        {
          ...dateColumn('SCHEDULED', (p: ScheduledPost) => p.scheduledAt, shownTime(ctx.env, ctx.now, res.response.headers), { time: true }),
          field: 'scheduledAt',
        },
      ],
    },
  );
}

/** A bulk run prints its own report (docs/cli-contract.md "For CI jobs"): --jq, --csv and -q are for one post. */
function noScriptFlags<F>(ctx: Context, f: F): F {
  const g = ctx.globals;
  const used = [g.jq !== undefined && '--jq', g.csv && '--csv', g.quiet && '--quiet'].filter(Boolean);
  if (used.length) throw new UsageError(`${used.join(' and ')} cannot be used with --from`, 'a bulk run prints one JSON line per row with --json');
  return f;
}
