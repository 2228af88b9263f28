/**
 * The CLI bundle's entry (src/startup/launch.ts runs it; `--version` never gets here): wires
 * signals, runs, flushes stdout, exits with the mapped code. The CLI proper (src/cli.ts)
 * comes in with one dynamic import.
 */
export async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // `cr … | head`: the reader left; stop quietly like any Unix tool instead of crashing.
  // Any other failure (`cr … > file` on a full disk: ENOSPC) is one line and exit 1, as the
  // launcher says it for a help page (src/startup/write-whole.ts), never a stack: the result
  // the caller asked for is lost, and nothing later can bring it back.
  const stdoutFailed = (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    process.stderr.write(`cr: cannot write to standard output (${typeof err.code === 'string' ? err.code : 'error'})\n`);
    process.exit(1);
  };
  process.stdout.on('error', stdoutFailed);
  // `cr … 2>&1 | head -1`, or `2> file` on a full disk: a stderr that cannot be written only
  // loses diagnostics (there is nowhere left to say anything); the command goes on and ends
  // with its own exit code (a failed stdout above ends it at once).
  process.stderr.on('error', () => undefined);
  const [{ run, interrupted }, { createContext }, { stopSpinners }] = await Promise.all([
    import('./cli.js'),
    import('./cli/context.js'),
    import('./io/spinner.js'),
  ]);
  const ctx = createContext();
  const onSigint = () => {
    // A command with its own SIGINT handling (cr serve drains and exits 0) takes over.
    // The spinner and prompts add no listener of their own (src/io/spinner.ts), so any
    // other listener here is a command's.
    if (process.listenerCount('SIGINT') > 1) return;
    stopSpinners();
    process.exit(interrupted(ctx));
  };
  process.on('SIGINT', onSigint);
  const code = await run(argv, ctx);
  process.off('SIGINT', onSigint);
  // Both streams: to a pipe a large write is still queued when run() returns, and
  // process.exit() would cut it short (a long list of plan problems on stderr). Only a stream
  // with writes still queued: a zero-length write is a write(2) of its own, which a file
  // that cannot take more (/dev/full) fails, turning a result already written into exit 1.
  const queued = [process.stdout, process.stderr].filter((s) => s.writableLength > 0);
  await Promise.all(queued.map((s) => new Promise<void>((resolve) => s.write('', () => resolve()))));
  // A write to a file that failed (a full disk) is said by an 'error' event still to come:
  // the stream knows already, and the result is lost all the same.
  if (process.stdout.errored) stdoutFailed(process.stdout.errored as NodeJS.ErrnoException);
  process.exit(code);
}
