import { spawn } from 'node:child_process';

/** A pager started for this run's output: its standard input, and its end. */
export interface PagerProcess {
  write(text: string): void;
  /** Ends its input and waits for the reader to quit; `ran` is false when the command could not run (127, 126). */
  close(): Promise<{ ran: boolean }>;
}

/**
 * The pager as the user's shell runs it (`sh -c "$PAGER"`), reading our output on its standard
 * input and drawing on the terminal. LESS and LV default as gh sets them (less: quit when one
 * screen holds it all, keep colours, leave the screen as it is).
 */
export function spawnPager(command: string, env: NodeJS.ProcessEnv): PagerProcess {
  const child = spawn('sh', ['-c', command], { stdio: ['pipe', 'inherit', 'inherit'], env: { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' } });
  // The reader quit before the end (q in less): the rest is not wanted, and EPIPE is no error.
  child.stdin.on('error', () => undefined);
  const exited = new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(127));
    child.on('exit', (code) => resolve(code));
  });
  return {
    write: (text) => void child.stdin.write(text),
    async close() {
      child.stdin.end();
      // Ctrl-C while the reader reads is the pager's (less stops a search with it): cr waits
      // for the pager to end rather than exit under it and leave it holding the terminal.
      // Another SIGINT listener makes src/main.ts leave the signal to the command.
      const waitForPager = () => undefined;
      process.on('SIGINT', waitForPager);
      try {
        const code = await exited;
        return { ran: code !== 127 && code !== 126 };
      } finally {
        process.off('SIGINT', waitForPager);
      }
    },
  };
}
