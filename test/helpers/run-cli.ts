import { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import { run } from '../../src/cli.js';
import { createContext } from '../../src/cli/context.js';
import { createIO } from '../../src/io/streams.js';
import { tempDir } from './tmp.js';

export interface RunCliOptions {
  /** Extra environment, merged over a minimal clean one. `undefined` values remove a variable. */
  env?: Record<string, string | undefined>;
  /** Text (or a stream) on stdin; without it stdin is empty, like /dev/null. */
  input?: string | Readable;
  /** Which streams are terminals: `true` means stdout and stderr (stdin stays a pipe). */
  tty?: boolean | { out?: boolean; err?: boolean; in?: boolean };
  /** The terminal width when stdout is one (COLUMNS in `env` still wins, as in a shell). */
  columns?: number;
  /** The config folder (also HOME); a fresh temp folder when omitted. */
  configDir?: string;
  /** Every HTTP request of the run goes through it (an undici MockAgent). */
  dispatcher?: Dispatcher;
}

export interface CliResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  configDir: string;
}

/**
 * Runs the CLI from the sources in this process: `run(argv, ctx)` from src/cli.ts with a
 * context over in-memory streams and an env of its own (nothing read from process.env),
 * so a command test costs no process spawn. The same clean env as the built-binary runner
 * (test/helpers/cli.ts `runBin`): temp CR_CONFIG_DIR and HOME, fast retries, no colour.
 */
export async function runCli(args: string[], opts: RunCliOptions = {}): Promise<CliResult> {
  const configDir = opts.configDir ?? tempDir('cr-cfg-');
  const env: Record<string, string> = {
    HOME: configDir,
    CR_CONFIG_DIR: configDir,
    CR_RETRY_BASE_MS: '5',
    NO_COLOR: '1',
    LANG: 'C.UTF-8',
  };
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  const tty = typeof opts.tty === 'object' ? opts.tty : { out: Boolean(opts.tty), err: Boolean(opts.tty) };
  const out: string[] = [];
  const err: string[] = [];
  const stdin = opts.input instanceof Readable ? opts.input : Readable.from(opts.input === undefined ? [] : [Buffer.from(opts.input)]);
  const io = createIO(env, {
    out: { write: (t) => void out.push(t) },
    err: { write: (t) => void err.push(t) },
    stdin,
    isTTY: { out: Boolean(tty.out), err: Boolean(tty.err), in: Boolean(tty.in) },
    columns: opts.columns,
  });
  const ctx = createContext(env, io);
  if (opts.dispatcher) ctx.dispatcher = opts.dispatcher;
  const exitCode = await run(args, ctx);
  return { exitCode, stdout: out.join(''), stderr: err.join(''), configDir };
}
