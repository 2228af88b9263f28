import { setMaxListeners } from 'node:events';
import type { Context } from '../cli/context.js';
import { InterruptedError, LocalError } from '../errors.js';
import type { ApiClient } from '../http/client.js';
import { loadPlan, PlanCheckError } from './load-plan.js';
import { reportPlanCheck } from './report-plan-check.js';
import { alreadyDone, loadState, StateWriter } from './state.js';
import { runRows } from './runner.js';
import { restSender, type Sender } from './send.js';
import { countOf, exitOf, summaryLine } from './outcome.js';
import { jsonLine, writeRows } from './report-rows.js';
import { startProgress } from './progress.js';
import { shownTime } from '../render/dates.js';
import { printPlan } from './dry-run.js';
import { reportCi, withoutAnnotated } from './report-ci.js';
import { escapeControls } from './escape.js';
import type { PlanFormat, RowResult } from './types.js';

export interface BulkOptions {
  from: string;
  format?: PlanFormat;
  concurrency: number;
  wait: boolean;
  state?: string;
  dryRun: boolean;
  junit?: string;
  /** Sends of a row again after 502/503/504 or a lost connection (0: none). */
  retry?: number;
  /** Backoff base between those sends (tests shorten it). */
  retryBaseMs?: number;
}

/** `cr posts schedule --from FILE` (docs/cli-contract.md "For CI jobs: bulk scheduling"). */
export async function runBulk(ctx: Context, o: BulkOptions, sender?: Sender): Promise<void> {
  const started = Date.now();
  const now = ctx.now();
  let plan;
  try {
    plan = await loadPlan(ctx.io, o.from, now, o.format);
  } catch (err) {
    if (err instanceof PlanCheckError) await reportPlanCheck(ctx, err, o.junit);
    throw err;
  }
  const state = o.state ? await loadState(o.state) : undefined;
  if (state?.torn) ctx.notice(`cr: ignored ${state.torn} unreadable line(s) of the state file (a run stopped mid-write); those rows are sent again`);
  const skipped: RowResult[] = [];
  const toSend = plan.rows.filter((row) => {
    const done = state && alreadyDone(state, row);
    if (done) skipped.push({ row, status: 'skipped', scheduledAt: done.scheduledAt ?? row.wire });
    return !done;
  });
  if (o.dryRun) return printPlan(ctx, plan, toSend, skipped);

  const json = ctx.globals.json;
  let client: ApiClient | undefined;
  // Whether this is a CI job, read before io.ci is forced below: at a terminal the run
  // still shows its progress bar and the per-second countdown.
  const ci = ctx.io.ci;
  if (!sender) {
    // The HTTP core's per-request spinner would fight the progress bar: this run's client is
    // built as in CI (spinnerActivity reads io.ci when a request is slow). The context owns
    // the client (profile or --local) and closes it when the command ends.
    ctx.io.ci = true;
    client = await ctx.api();
  }
  const send = sender ?? restSender(client!, ctx.globals.website);
  const writer = o.state ? await StateWriter.open(o.state) : undefined;
  const progress = await startProgress(ctx.io, plan.rows.length, ci);
  const ac = new AbortController();
  // Every send waiting out a retry's backoff listens on this signal, besides the runner itself:
  // up to --concurrency at once, past the ten after which Node warns of a leak on stderr.
  setMaxListeners(o.concurrency + 2, ac.signal);
  // Ctrl-C: stop new sends, record what finished, exit 130 (docs/cli-contract.md "At a terminal"). A
  // listener here also tells src/main.ts not to exit on its own.
  const onSigint = () => ac.abort();
  process.on('SIGINT', onSigint);
  let run;
  try {
    for (const r of skipped) {
      if (json) ctx.io.out.write(jsonLine(r) + '\n');
      progress.tick();
    }
    run = await runRows({
      rows: toSend,
      concurrency: o.concurrency,
      wait: o.wait,
      retry: o.retry ?? 0,
      // The HTTP client's own backoff base (src/http/build-client.ts): tests shorten both alike.
      retryBaseMs: o.retryBaseMs ?? (ctx.env.CR_RETRY_BASE_MS ? Number(ctx.env.CR_RETRY_BASE_MS) : undefined),
      send,
      signal: ac.signal,
      onWait: (until) => progress.waiting(until),
      async onResult(result) {
        await writer?.record(result, new Date());
        if (json) ctx.io.out.write(jsonLine(result) + '\n');
        progress.tick();
      },
    });
  } finally {
    process.off('SIGINT', onSigint);
    progress.stop();
    await writer?.close().catch(() => undefined);
  }
  if (run.fatal !== undefined) throw run.fatal;
  const results = [...skipped, ...run.results];
  if (json) for (const r of run.results) if (r.status === 'not_sent') ctx.io.out.write(jsonLine(r) + '\n');
  // Under GitHub Actions a failed row's annotation is its line in the log (src/bulk/report-ci.ts):
  // the table leaves out those rows so that none is printed twice.
  if (!json)
    await writeRows(
      ctx.io,
      ctx.env.GITHUB_ACTIONS === 'true' ? withoutAnnotated(results) : results,
      shownTime(ctx.env, () => ctx.now()),
    );
  const counts = countOf(results);
  await reportCi(ctx, { plan, results, counts, json, junit: o.junit, seconds: (Date.now() - started) / 1000 });
  const retried = results.reduce((n, r) => n + (r.retries ?? 0), 0);
  ctx.io.err.write(summaryLine(counts) + (retried ? `; ${retried} ${retried === 1 ? 'retry' : 'retries'} after transient failures` : '') + '\n');
  const exit = exitOf(results, run.stop, run.authExit);
  if (exit === 0) return;
  if (run.stop === 'interrupted') throw new InterruptedError();
  throw new LocalError(failureMessage(plan.file, results, run.stop), exit, {
    code: run.stop === 'auth' ? 'STOPPED' : exit === 7 ? 'RATE_LIMITED' : 'ROWS_FAILED',
  });
}

function failureMessage(file: string, results: RowResult[], stop?: string): string {
  if (stop === 'auth') return 'the key was refused; the run stopped and the rows left were not sent';
  const unsent = results.filter((r) => r.status === 'not_sent').length;
  if (unsent && results.some((r) => r.code === 'RATE_LIMITED'))
    return `${unsent} row(s) not sent: the rate limit budget ran out (rerun with --state, or pass --wait)`;
  const first = [...results].sort((a, b) => a.row.line - b.row.line).find((r) => r.status === 'failed');
  const failed = results.filter((r) => r.status === 'failed').length;
  return `${failed} row(s) failed; the first at ${escapeControls(file)}:${first?.row.line ?? '?'}`;
}
