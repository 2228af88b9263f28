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

function assertBuilt(): void {
  if (!existsSync(join(ROOT, 'dist', 'src', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` before the CLI tests');
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
  const nodeArgs = opts.nodeArgs ?? [];
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
    const quoted = [NODE, ...nodeArgs, BIN].map((a) => `'${a.replace(/'/g, `'\\''`)}'`).join(' ');
    result = (await execa('sh', ['-c', `umask ${opts.umask}; exec ${quoted} "$@"`, 'sh', ...args], common)) as Result;
  } else {
    result = (await execa(NODE, [...nodeArgs, BIN, ...args], common)) as Result;
  }
  return {
    exitCode: result.exitCode ?? -1,
    stdout: String(result.stdout ?? ''),
    stderr: String(result.stderr ?? ''),
    configDir,
    timedOut: Boolean(result.timedOut),
  };
}
