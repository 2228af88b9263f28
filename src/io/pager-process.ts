import { spawn } from 'node:child_process';

/** How the pager ended (docs/output.md "Paging"). */
export interface PagerEnd {
  /** False when the command could not run (126, 127). */
  ran: boolean;
  /** Its exit status; null when a signal (Ctrl-C) ended it. */
  code: number | null;
  /** Whether it read none of what was written before it ended (it showed nothing). */
  readNothing: boolean;
}

/** A pager started for this run's output: its standard input, and its end. */
export interface PagerProcess {
  write(text: string): void;
  /** Ends its input and waits for the reader to quit. */
  close(): Promise<PagerEnd>;
}

/**
 * The shell around the pager: it runs the command as the user's shell would (`sh -c "$PAGER"`),
 * then counts the bytes the pager left unread on their shared input and reports that count and
 * the pager's status on fd 3. A pipe cannot say whether its reader took anything; this count
 * can, so a pager that exits 0 without reading (`sh -c "exit 0"`) is told from a reader that
 * quit with q after the first screen. `trap : INT` keeps this shell waiting while Ctrl-C is the
 * pager's (a handler, not an ignore: the pager still gets the default).
 */
const WRAPPER = 'trap : INT; sh -c "$1" 3>&-; s=$?; n=$(wc -c); printf "%s %s\\n" "$s" "$n" >&3; exit "$s"';

/**
 * The pager, reading our output on its standard input and drawing on the terminal. LESS and LV
 * default as gh sets them (less: quit when one screen holds it all, keep colours, leave the
 * screen as it is).
 */
export function spawnPager(command: string, env: NodeJS.ProcessEnv): PagerProcess {
  const child = spawn('sh', ['-c', WRAPPER, 'sh', command], {
    stdio: ['pipe', 'inherit', 'inherit', 'pipe'],
    env: { ...env, LESS: env.LESS ?? 'FRX', LV: env.LV ?? '-c' },
  });
  // The wrapper drains what the pager leaves; EPIPE comes only if the shell itself is gone.
  child.stdin?.on('error', () => undefined);
  let report = '';
  child.stdio[3]?.on('data', (d: Buffer) => {
    report += d.toString('utf8');
  });
  const exited = new Promise<number | null>((resolve) => {
    child.on('error', () => resolve(127));
    child.on('close', (code) => resolve(code));
  });
  let sent = 0;
  return {
    write(text) {
      sent += Buffer.byteLength(text);
      child.stdin?.write(text);
    },
    async close() {
      child.stdin?.end();
      // Ctrl-C while the reader reads is the pager's (less stops a search with it): cr waits
      // for the pager to end rather than exit under it and leave it holding the terminal.
      // Another SIGINT listener makes src/main.ts leave the signal to the command.
      const waitForPager = () => undefined;
      process.on('SIGINT', waitForPager);
      try {
        const code = await exited;
        return pagerEnd(code, report, sent);
      } finally {
        process.off('SIGINT', waitForPager);
      }
    },
  };
}

/** The wrapper's report (`status unread`) read against what was sent. */
function pagerEnd(code: number | null, report: string, sent: number): PagerEnd {
  const m = /^(\d+) +(\d+)/.exec(report.trim());
  if (!m) return { ran: code !== 127 && code !== 126, code, readNothing: false };
  const status = Number(m[1]);
  // A shell reports a pager ended by a signal as 128 + the signal: the reader's own end.
  const byName = status > 128 ? null : status;
  return { ran: status !== 127 && status !== 126, code: byName, readNothing: sent > 0 && Number(m[2]) >= sent };
}
