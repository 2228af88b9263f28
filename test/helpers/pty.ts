import { crCommand } from './cli.js';
import { type Child, shellQuote, spawnProcess } from './process.js';
import { tempDir } from './tmp.js';

/**
 * The built CLI on a real pseudo-terminal: util-linux `script` gives it a terminal as
 * stdin, stdout and stderr, and whatever is written to `keys` is typed on it (`\x03` is
 * Ctrl-C, turned into SIGINT by the terminal unless the program put it in raw mode).
 * For what only a terminal shows: Ctrl-C under a spinner or at a prompt.
 */
export interface PtyRun {
  /** Everything the terminal showed so far (stdout and stderr together). */
  screen(): string;
  /** Resolves once the screen shows `text`; rejects after `ms`. */
  waitFor(text: string, ms?: number): Promise<void>;
  /** Types on the terminal. */
  type(keys: string): void;
  /** The exit code, once the process ended. */
  done: Promise<{ exitCode: number }>;
  kill(): void;
}

export function runOnPty(args: string[], env: Record<string, string>, timeoutMs = 20_000, cols = 100): PtyRun {
  // A pty starts 0x0; ora would then redraw as if every line wrapped forever.
  const command = `stty cols ${cols} rows 30; exec ${crCommand(args).map(shellQuote).join(' ')}`;
  const child: Child = spawnProcess('script', ['-qfec', command, '/dev/null'], { stdin: 'pipe', timeoutMs, env: { TERM: 'xterm-256color', ...env } });
  let screen = '';
  const waiters: (() => void)[] = [];
  child.stdout?.on('data', (d: Buffer) => {
    screen += d.toString('utf8');
    for (const w of waiters.splice(0)) w();
  });
  const done = child.then((r) => ({ exitCode: r.exitCode ?? -1 }));
  return {
    screen: () => screen,
    async waitFor(text, ms = 10_000) {
      const deadline = Date.now() + ms;
      while (!screen.includes(text)) {
        if (Date.now() > deadline) throw new Error(`the terminal never showed ${JSON.stringify(text)}; it showed ${JSON.stringify(screen.slice(-500))}`);
        await Promise.race([new Promise<void>((r) => waiters.push(r)), new Promise((r) => setTimeout(r, 100)), done]);
      }
    },
    type: (keys) => void child.stdin?.write(keys),
    done,
    kill: () => void child.kill('SIGKILL'),
  };
}

/**
 * `cr ARGS` run to its end on a pseudo-terminal `cols` wide (util-linux `script`, stty), with a
 * config folder of its own and `env` over HOME, CR_CONFIG_DIR, TZ=UTC, TERM and CI: the lines the
 * terminal showed (colour and CR removed) and the exit code.
 */
export async function linesOnPty(args: string[], cols: number, env: Record<string, string>): Promise<{ lines: string[]; code: number }> {
  const dir = tempDir('cr-pty-cfg-');
  const command = `stty cols ${cols} rows 50; exec ${crCommand(args).map(shellQuote).join(' ')}`;
  const r = await spawnProcess('/usr/bin/script', ['-qfec', command, '/dev/null'], {
    env: { HOME: dir, CR_CONFIG_DIR: dir, TZ: 'UTC', TERM: 'xterm-256color', CI: '1', ...env },
    timeoutMs: 30_000,
  });
  const lines = String(r.stdout)
    .replace(/\u001b\[[0-9;]*m/g, '')
    .replace(/\r/g, '')
    .split('\n');
  return { lines, code: r.exitCode ?? -1 };
}
