/**
 * The CLI bundle's entry (src/startup/launch.ts runs it; `--version` never gets here): wires
 * signals, runs, flushes stdout, exits with the mapped code. The CLI proper (src/cli.ts)
 * comes in with one dynamic import.
 */
export async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // `cr … | head`: the reader left; stop quietly like any Unix tool instead of crashing.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'EPIPE') process.exit(0);
    throw err;
  });
  // `cr … 2>&1 | head -1`: a closed stderr only loses diagnostics; the command goes on and
  // ends with its own exit code (a closed stdout above ends it at once, as before).
  process.stderr.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code !== 'EPIPE') throw err;
  });
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
  // process.exit() would cut it short (a long list of plan problems on stderr).
  await Promise.all([process.stdout, process.stderr].map((s) => new Promise<void>((resolve) => s.write('', () => resolve()))));
  process.exit(code);
}
