import { execa, type Result } from 'execa';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './tmp.js';
import { BIN, NODE, ROOT } from './paths.js';

export { BIN, NODE, PKG_VERSION, ROOT } from './paths.js';

export interface BinOptions {
  /** Extra environment (merged over a minimal clean one). `undefined` values remove a variable. */
  env?: Record<string, string | undefined>;
  /** Text fed on stdin; without it stdin is /dev/null. */
  input?: string;
  /** The config folder; a fresh temp folder when omitted. */
  configDir?: string;
  /** Run through `sh -c 'umask <mask>; exec node bin/cr.js ...'`. */
  umask?: string;
  /** Extra node flags before bin/cr.js (e.g. --import a hook). */
  nodeArgs?: string[];
  timeoutMs?: number;
}

export interface BinResult {
  exitCode: number;
  stdout: string;
  stderr: string;
  configDir: string;
  timedOut: boolean;
}

/**
 * The executable the process-level tests run instead of `node bin/cr.js` when CR_TEST_BIN names
 * one: the single executable (dist/sea/cr), which .ci/run builds and tests this way.
 */
export const TEST_BIN = process.env.CR_TEST_BIN || undefined;

function assertBuilt(): void {
  if (TEST_BIN) {
    if (!existsSync(TEST_BIN)) throw new Error(`CR_TEST_BIN names ${TEST_BIN}, which does not exist (npm run build:sea makes dist/sea/cr)`);
    return;
  }
  if (!existsSync(join(ROOT, 'dist', 'src', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
}

/** The command line that runs cr with `args`: CR_TEST_BIN, else NODE with bin/cr.js (node flags need the latter). */
export function crCommand(args: readonly string[], nodeArgs: readonly string[] = []): [string, ...string[]] {
  if (TEST_BIN === undefined) return [NODE, ...nodeArgs, BIN, ...args];
  if (nodeArgs.length) throw new Error(`node flags (${nodeArgs.join(' ')}) need node bin/cr.js: skip this test when CR_TEST_BIN is set`);
  return [TEST_BIN, ...args];
}

/**
 * Runs the built CLI (bin/cr.js) as a child process with a clean environment, a temp
 * CR_CONFIG_DIR and `reject: false`, so tests look at the exit code themselves.
 */
export async function runBin(args: string[], opts: BinOptions = {}): Promise<BinResult> {
  assertBuilt();
  const configDir = opts.configDir ?? tempDir('cr-cfg-');
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
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
  const [file, ...prefix] = crCommand([], opts.nodeArgs);
  const common = {
    env,
    extendEnv: false,
    reject: false,
    cwd: ROOT,
    timeout: opts.timeoutMs ?? 15_000,
    stripFinalNewline: false,
    ...(opts.input === undefined ? { stdin: 'ignore' as const } : { input: opts.input }),
  };
  let result: Result;
  if (opts.umask !== undefined) {
    const quoted = [file, ...prefix].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    result = (await execa('sh', ['-c', `umask ${opts.umask}; exec ${quoted} "$@"`, 'sh', ...args], common)) as Result;
  } else {
    result = (await execa(file, [...prefix, ...args], common)) as Result;
  }
  return {
    exitCode: result.exitCode ?? -1,
    stdout: String(result.stdout ?? ''),
    stderr: String(result.stderr ?? ''),
    configDir,
    timedOut: Boolean(result.timedOut),
  };
}
