import { Option, type Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { completeWith, intArg, oneOf } from '../../src/cli/options.js';
import { UsageError } from '../../src/errors.js';

export interface ScheduleFromFlags {
  from?: string;
  format?: 'csv' | 'jsonl';
  concurrency: number;
  wait?: boolean;
  state?: string;
  junit?: string;
  retry?: number;
  dryRun?: boolean;
  at?: string;
}

/** --concurrency: 1..16 (docs/cli-contract.md: default 4, at most 16). */
const concurrencyArg = (value: string): number => {
  const n = intArg('--concurrency', 1)(value);
  if (n > 16) throw new UsageError(`--concurrency must be at most 16, got ${n}`);
  return n;
};

/** The bulk form's flags on `cr posts schedule` (docs/cli-contract.md "For CI jobs: bulk scheduling"). */
export function addScheduleFromOptions(cmd: Command): Command {
  return cmd
    .option('--from <file>', 'schedule every row of a CSV (id,at[,website_id]) or JSON Lines file; - reads stdin')
    .addOption(
      completeWith(new Option('--format <format>', 'plan format (default: by extension, else sniffed)').argParser(oneOf('--format', ['csv', 'jsonl'])), [
        'csv',
        'jsonl',
      ]),
    )
    .addOption(new Option('--concurrency <n>', 'requests in flight with --from (1-16)').argParser(concurrencyArg).default(4))
    .option('--wait', 'with --from: wait for the rate-limit window to reset instead of stopping')
    .option('--state <file>', 'with --from: record finished rows here; a rerun skips rows already scheduled at the same time')
    .option('--junit <file>', 'with --from: write a JUnit XML report')
    .addOption(
      new Option('--retry <n>', 'with --from: send a row again after 502/503/504 or a lost connection, up to N times (0: never)').argParser(
        intArg('--retry', 0),
      ),
    );
}

/** Resends per row after a transient failure (docs/cli-contract.md "For CI jobs: bulk scheduling"). */
export const DEFAULT_RETRY = 2;

/** Runs the bulk form; the work lives in src/bulk (loaded only when --from is given). */
export async function scheduleFrom(ctx: Context, id: string | undefined, f: ScheduleFromFlags): Promise<void> {
  if (id !== undefined || f.at !== undefined) throw new UsageError('--from takes the ids and times from the file', 'drop the <id> argument and --at');
  const { runBulk } = await import('../../src/bulk/run-bulk.js');
  await runBulk(ctx, {
    from: f.from!,
    format: f.format,
    concurrency: f.concurrency,
    wait: Boolean(f.wait),
    state: f.state,
    junit: f.junit,
    retry: f.retry ?? DEFAULT_RETRY,
    dryRun: Boolean(f.dryRun),
  });
}

/** The single-post form's inputs: <id> and --at are required there, the bulk-only flags refused. */
export function singleForm(id: string | undefined, f: ScheduleFromFlags): { id: string; at: string; dryRun: boolean } {
  const hint = 'run `cr posts schedule --help`';
  if (id === undefined) throw new UsageError("missing required argument 'id' (or --from FILE)", hint);
  if (f.at === undefined) throw new UsageError("required option '--at <when>' not specified", hint);
  const bulkOnly = (['format', 'wait', 'state', 'junit', 'retry'] as const).filter((k) => f[k] !== undefined);
  if (bulkOnly.length) throw new UsageError(`--${bulkOnly[0]} goes with --from FILE`, hint);
  return { id, at: f.at, dryRun: Boolean(f.dryRun) };
}
