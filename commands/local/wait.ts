import { Command } from 'commander';
import type { Context } from '../../src/cli/context.js';
import { intArg, withExamples } from '../../src/cli/options.js';

interface WaitOptions {
  urlFile: string;
  pid?: number;
}

const DEFAULT_WAIT_SECONDS = 30;

/**
 * `cr local wait --url-file FILE`: the other half of `cr serve --url-file` in a CI script
 * (docs/local-server.md, the CI recipe). Returns once the URL in FILE answers, and prints it,
 * so `CR_BASE_URL=$(cr local wait …)` can never read an empty file or a server still starting.
 */
export const waitCommand = (ctx: Context) =>
  withExamples(
    new Command('wait')
      .description('wait until the `cr serve --url-file FILE` server answers, then print its base URL (gives up after --timeout, default 30 s, exit 8)')
      .requiredOption('--url-file <file>', 'the file given to cr serve --url-file')
      .option('--pid <pid>', 'the cr serve process (e.g. $!): stop at once, exit 1, when it has exited', intArg('--pid', 1))
      .action((f: WaitOptions) => run(ctx, f)),
    ['cr serve --port 0 --url-file url.txt & CR_BASE_URL=$(cr local wait --url-file url.txt --pid $!)'],
  );

async function run(ctx: Context, o: WaitOptions): Promise<void> {
  const { waitForServer } = await import('../../src/local/wait.js');
  // The global --timeout bounds the whole command (docs/cli-contract.md): here, the wait itself.
  const seconds = ctx.globals.timeout ?? DEFAULT_WAIT_SECONDS;
  const url = await waitForServer({ urlFile: o.urlFile, timeoutMs: seconds * 1000, pid: o.pid });
  ctx.io.out.write(`${url}\n`);
}
