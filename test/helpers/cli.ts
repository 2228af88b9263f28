import { chmodSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './tmp.js';
import { BIN, NODE, ROOT } from './paths.js';
import { CALLER_PATH, type Child, type Env, type ProcessOptions, shellQuote, spawnProcess } from './process.js';

export { BIN, NODE, PKG_VERSION, ROOT } from './paths.js';

/**
 * The cr under test, as a process. `CR_TEST_BIN`: an executable to run instead of
 * `node bin/cr.js` (the single-file binary); `CR_TEST_NODE`: the Node that runs bin/cr.js
 * and the server's helper script (paths.ts NODE; default: the Node running the tests).
 */
export const TEST_BIN = process.env.CR_TEST_BIN || undefined;
if (TEST_BIN !== undefined && !existsSync(TEST_BIN)) throw new Error(`CR_TEST_BIN names ${TEST_BIN}, which does not exist (npm run build:sea makes dist/sea/cr)`);

/** The command line that runs cr with `args` (node flags need `node bin/cr.js`: see TEST_BIN). */
export function crCommand(args: readonly string[], nodeArgs: readonly string[] = []): [string, ...string[]] {
  if (TEST_BIN === undefined) return [NODE, ...nodeArgs, BIN, ...args];
  if (nodeArgs.length) throw new Error(`node flags (${nodeArgs.join(' ')}) need node bin/cr.js: skip this test when CR_TEST_BIN is set (TEST_BIN)`);
  return [TEST_BIN, ...args];
}

/**
 * A `cr` command in `dir` that runs the cr under test, as an installed package puts one on
 * PATH (for README scripts run with bash); returns the PATH to give the child, `dir` first.
 */
export function crOnPath(dir: string = tempDir('cr-bin-')): string {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'cr'), `#!/bin/sh\nexec ${crCommand([]).map(shellQuote).join(' ')} "$@"\n`);
  chmodSync(join(dir, 'cr'), 0o755);
  return `${dir}:${CALLER_PATH}`;
}

export interface BinOptions {
  /** The child's variables over the clean ones below; `undefined` removes one. */
  env?: Env;
  /** Text fed on stdin; without it stdin is /dev/null (`stdin: 'pipe'` to write it yourself). */
  input?: string;
  stdin?: 'ignore' | 'pipe';
  /** The config folder (also HOME); a fresh temp folder when omitted. */
  configDir?: string;
  /** Run through `sh -c 'umask <mask>; exec cr ...'`. */
  umask?: string;
  /** Extra node flags before bin/cr.js (e.g. --require a hook); not with CR_TEST_BIN. */
  nodeArgs?: string[];
  /** A command that runs cr inside it, e.g. `['unshare', '-pf', '--mount-proc', '--kill-child']`. */
  via?: string[];
  timeoutMs?: number;
  cwd?: string;
  /** false: nothing collected, read the child's streams yourself (long-running processes). */
  buffer?: boolean;
  execa?: ProcessOptions['execa'];
}

export interface BinResult {
  exitCode: number;
  /** The signal that ended the process, if one did. */
  signal: string | undefined;
  stdout: string;
  stderr: string;
  configDir: string;
  timedOut: boolean;
}

/** dist/ is built once by test/global-setup.ts before any test file runs; never by a test. */
export function ensureBuilt(): void {
  if (!existsSync(join(ROOT, 'dist', 'bundle', 'cli.js')) || !existsSync(join(ROOT, 'dist', 'src', 'server', 'serve.js'))) {
    throw new Error('dist/ is missing: run `npm run build` before the tests that start processes');
  }
}

/** The clean environment of a cr process: HOME and CR_CONFIG_DIR in `configDir`, fast retries, no colour. */
export function crEnv(configDir: string, env: Env = {}): Env {
  return { HOME: configDir, CR_CONFIG_DIR: configDir, CR_RETRY_BASE_MS: '5', NO_COLOR: '1', ...env };
}

/**
 * Starts cr (see `crCommand`) as a child process with an environment of its own and
 * returns it running: for signals, stdin written while it runs, or output read as it comes.
 * Never rejects. `runBin` is the same, awaited.
 */
export function spawnBin(args: readonly string[], opts: BinOptions = {}): Child & { configDir: string } {
  if (TEST_BIN === undefined) ensureBuilt();
  const configDir = opts.configDir ?? tempDir('cr-cfg-');
  let [file, ...rest] = [...(opts.via ?? []), ...crCommand(args, opts.nodeArgs)];
  if (opts.umask !== undefined) {
    const quoted = [file, ...rest].map(shellQuote).join(' ');
    [file, rest] = ['sh', ['-c', `umask ${opts.umask}; exec ${quoted}`]];
  }
  const child = spawnProcess(file, rest, {
    env: crEnv(configDir, opts.env),
    input: opts.input,
    stdin: opts.stdin,
    cwd: opts.cwd,
    timeoutMs: opts.timeoutMs ?? 20_000,
    buffer: opts.buffer,
    execa: { stripFinalNewline: false, ...opts.execa },
  });
  return Object.assign(child, { configDir });
}

/**
 * Runs cr as a child process with a clean environment (`crEnv`: a temp CR_CONFIG_DIR and
 * HOME) and returns how it ended; never rejects, tests look at the exit code themselves.
 */
export async function runBin(args: readonly string[], opts: BinOptions = {}): Promise<BinResult> {
  const child = spawnBin(args, opts);
  const result = await child;
  return {
    exitCode: result.exitCode ?? -1,
    signal: result.signal ?? undefined,
    stdout: String(result.stdout ?? ''),
    stderr: String(result.stderr ?? ''),
    configDir: child.configDir,
    timedOut: Boolean(result.timedOut),
  };
}
