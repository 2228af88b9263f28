import { escapeControls } from '../render/controls.js';
import type { PagerEnd } from './pager-process.js';
import type { IO, Sink } from './streams.js';

/** The pager command: CR_PAGER, else PAGER, else `less -FRX` (as gh); empty or `cat` for none. */
export function pagerCommand(env: NodeJS.ProcessEnv): string | undefined {
  const command = (env.CR_PAGER ?? env.PAGER ?? 'less -FRX').trim();
  return command === '' || command === 'cat' ? undefined : command;
}

/**
 * Runs `body` with its standard output going through the pager (docs/output.md "Paging"): only
 * when standard output is a terminal, a pager is set and `--no-pager` was not given, so piped
 * output, --json to a pipe and scripts never see one. A pager that cannot run, fails or shows
 * nothing loses nothing: what was written is printed directly, and stderr says why.
 */
export async function paged(io: IO, noPager: boolean, body: (io: IO) => Promise<void>): Promise<void> {
  const command = pagerCommand(io.env);
  if (noPager || !io.tty.out || !command || !io.canPage) return body(io);
  // Loaded when a pager starts: child_process stays off every other run's start-up. Started at
  // the first line of output, so the requests' spinner is done before the pager holds the screen.
  const { spawnPager } = await import('./pager-process.js');
  let pager: ReturnType<typeof spawnPager> | undefined;
  const written: string[] = [];
  const out: Sink = {
    write(text) {
      written.push(text);
      pager ??= spawnPager(command, io.env);
      pager.write(text);
    },
  };
  // The same IO but for stdout: a prototype, so getters such as stdin stay lazy.
  const through: IO = Object.assign(Object.create(io) as IO, { out });
  try {
    await body(through);
  } finally {
    const why = failure(pager ? await pager.close() : undefined);
    if (why) {
      io.err.write(`cr: the pager ${escapeControls(JSON.stringify(command))} ${why}; printed here instead (CR_PAGER chooses another, --no-pager none)\n`);
      for (const text of written) io.out.write(text);
    }
  }
}

/**
 * Why the pager's end lost the output, if it did: it could not run, it ended with a failure
 * (`PAGER=false`, an unknown option), or it exited without reading a byte. A reader that read
 * and exited 0 (q in less) or was ended by Ctrl-C is taken at its word.
 */
function failure(end: PagerEnd | undefined): string | undefined {
  if (!end) return undefined;
  if (!end.ran) return 'could not run';
  if (end.code !== null && end.code !== 0) return `failed (exit ${end.code})`;
  if (end.readNothing) return 'failed (it exited without reading the output)';
  return undefined;
}
