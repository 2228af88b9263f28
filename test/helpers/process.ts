import { execa, execaSync, type Options, type ResultPromise, type SyncResult } from 'execa';
import { ROOT } from './paths.js';

/**
 * Every child process a test starts (the CLI, `cr serve`, a shell running a README script, a
 * helper script, tsc, jq…) goes through this file, and gets a complete environment of its
 * own: nothing of the caller's environment but PATH, so a caller's XDG_*, CR_*, HOME or
 * NODE_OPTIONS never reaches it (test/README.md "Child processes"). No other test file
 * imports execa or node:child_process (test/architecture/test-env.test.ts).
 */

/** A running child (awaited: its result, stdout and stderr as strings; it never rejects). */
export type Child = ResultPromise<{ reject: false }>;

/** Variables a child gets: `undefined` removes one. */
export type Env = Record<string, string | undefined>;

/** The caller's PATH is the one thing passed through: it finds bash, unshare, script, jq. */
export const CALLER_PATH = process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin';

/** One word for sh, whatever it holds. */
export const shellQuote = (a: string) => `'${a.replace(/'/g, `'\\''`)}'`;

/** The complete environment of a child: PATH, LANG=C.UTF-8 and `vars` (`undefined` removes one). */
export function childEnv(vars: Env = {}): Record<string, string> {
  const env: Record<string, string> = { PATH: CALLER_PATH, LANG: 'C.UTF-8' };
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export interface ProcessOptions {
  /** The child's variables over `childEnv()`'s PATH and LANG; never the caller's. */
  env?: Env;
  /** Text on stdin; without it stdin is /dev/null (unless `stdin` says otherwise). */
  input?: string;
  stdin?: 'ignore' | 'pipe';
  /** Default: the project folder. */
  cwd?: string;
  /** Kill after this long (default 30 s); the result says `timedOut`. */
  timeoutMs?: number;
  /** false: stdout/stderr are streams only (read them with .on('data')), nothing collected. */
  buffer?: boolean;
  /** Extra execa options (stdio, killSignal…); env-related ones are not accepted. */
  execa?: Omit<Options, 'env' | 'extendEnv' | 'input' | 'stdin' | 'cwd' | 'timeout' | 'buffer' | 'reject'>;
}

function execaOptions(o: ProcessOptions) {
  return {
    ...o.execa,
    env: childEnv(o.env),
    extendEnv: false,
    reject: false,
    cwd: o.cwd ?? ROOT,
    timeout: o.timeoutMs ?? 30_000,
    buffer: o.buffer ?? true,
    ...(o.input === undefined ? { stdin: o.stdin ?? ('ignore' as const) } : { input: o.input }),
  } as const;
}

/**
 * Starts `file args` with an environment of its own; never rejects (look at `exitCode`,
 * `signal`, `timedOut` of the awaited result). The returned child can be signalled, its
 * streams read while it runs.
 */
export function spawnProcess(file: string, args: readonly string[], o: ProcessOptions = {}): Child {
  return execa(file, args, execaOptions(o)) as unknown as Child;
}

/** The same, run to its end synchronously (a probe at file load, `jq` for comparison); stdout whole, final newline kept. */
export function runProcessSync(file: string, args: readonly string[], o: Omit<ProcessOptions, 'buffer' | 'execa'> = {}): SyncResult<{ reject: false }> {
  const { env, cwd, timeout, input } = { ...execaOptions(o), input: o.input };
  return execaSync(file, args, { env, extendEnv: false, reject: false, stripFinalNewline: false, cwd, timeout, ...(input === undefined ? { stdin: 'ignore' } : { input }) }) as SyncResult<{
    reject: false;
  }>;
}
