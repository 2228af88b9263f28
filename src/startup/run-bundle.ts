import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { planCache, readOwnFile, writeUserCache } from './code-cache-file.js';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script, constants as vmConstants } from 'node:vm';
import { recordCodeCache } from './startup-cache.js';

/**
 * Runs the CLI bundle (dist/bundle/cli.js) compiled from the V8 code cache that the build
 * made (dist/bundle/cli.js.cache, scripts/code-cache.mjs). src/startup/launch.ts calls it.
 *
 * Why: parsing and compiling ~2 MB of bundled JavaScript (zod, undici, commander) was
 * about a third of a `cr finance summary` run. Node 20 has no compile cache for modules
 * (module.enableCompileCache is Node 22), but vm.Script takes V8's cached data, which
 * holds the bytecode of every function the training run executed. A cache V8 rejects
 * (another Node version, other V8 flags) only costs the compile it would have saved: on a
 * Node other than the builder's, the first run makes a cache of its own in the per-user
 * cache folder (src/startup/code-cache-file.ts). Node 22's module.enableCompileCache() is no help
 * here: it caches modules that Node's loader compiles, and the bundle is compiled here.
 *
 * The bundle is one function expression (its banner and footer), so the file's offsets are
 * the script's own, and coverage or stack positions map straight onto dist/bundle/cli.js.map.
 */
type BundleFn = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

export function runBundle(): void {
  const argv = process.argv.slice(2);
  zodWithoutJit(argv);
  const bundle = join(import.meta.dirname, 'cli.js');
  const kind = runsServerCode(argv) ? '.local' : '';
  const plan = planCache(`${bundle}${kind}.cache`, kind, argv);
  const cacheFile = plan.file;
  let source: string;
  try {
    // The build emits ASCII only (esbuild charset: 'ascii'), so latin1 reads it exactly
    // and skips UTF-8 decoding of 2 MB.
    source = readFileSync(bundle, 'latin1');
  } catch {
    process.stderr.write(`cr: ${bundle} is missing; run \`npm run build\`\n`);
    process.exit(1);
  }
  const own = cacheFile && !plan.shipped ? readOwnFile(cacheFile) : {};
  const cachedData = !cacheFile ? undefined : plan.shipped ? readOptional(cacheFile) : own.data;
  const script = withCacheChecksum(
    () =>
      new Script(source, {
        filename: bundle,
        cachedData,
        importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
      }),
  );
  // For `cr version` (src/startup/startup-cache.ts).
  recordCodeCache(cacheFile, cachedData, script);
  if (process.env.CR_STARTUP_DEBUG) {
    // refused: a file is there but is not one to trust (src/startup/code-cache-file.ts), and is replaced.
    const state = !cacheFile ? 'off' : own.refused ? 'refused' : !cachedData ? 'missing' : script.cachedDataRejected ? 'rejected' : 'accepted';
    process.stderr.write(`cr: code cache ${state} (${cacheFile ? cacheFile + (own.refused ? `: ${own.refused}` : '') : plan.note})\n`);
  }
  const out = process.env.CR_CODE_CACHE_OUT;
  // Build only: keep the bytecode of everything this run compiled, once it is done.
  if (out)
    process.once('exit', () =>
      writeAtomically(
        out,
        withCacheChecksum(() => script.createCachedData()),
      ),
    );
  // A per-user cache this Node lacked (or rejected): made from a run that succeeded, once.
  else if (plan.mayWrite && cacheFile && (!cachedData || script.cachedDataRejected))
    process.once(
      'exit',
      (code) =>
        code === 0 &&
        writeUserCache(
          cacheFile,
          withCacheChecksum(() => script.createCachedData()),
        ),
    );
  const mod = { exports: {} as { main?: () => Promise<void> } };
  (script.runInThisContext() as BundleFn)(mod.exports, createRequire(bundle), mod, bundle, dirname(bundle));
  void mod.exports.main!();
}

/**
 * Runs `fn` (a code cache's deserialisation or making) with V8's `--verify-snapshot-checksum`,
 * and no other time.
 *
 * V8 checks a code cache's header (version, flags, source length) but, in release builds, not
 * its body: a cache damaged past the header (a disk fault, a write lost in a crash) is
 * deserialised and aborts the process ("Fatal error … unreachable code") on every run. With
 * the flag V8 writes a checksum into each cache it makes and rejects one that does not match,
 * so a damaged cache only costs a compile (CONTRIBUTING.md, "How cr starts").
 *
 * Only around the two calls: V8 flags are part of the hash every code cache must match, Node's
 * own built-in modules' included. Left set, every built-in loaded later (node:http, net and
 * the streams of a request) was compiled from source: ~4 ms of a remote `finance summary`
 * (docs/benchmarks-analysis.md, "Start-up"). Set back, the hash is the one Node's caches were
 * made under. The flag is on while a cache is made and while one is read, so the hash written
 * into a cache is the one it is checked against.
 */
export function withCacheChecksum<T>(fn: () => T): T {
  setFlagsFromString('--verify-snapshot-checksum');
  try {
    return fn();
  } finally {
    setFlagsFromString('--no-verify-snapshot-checksum');
  }
}

/**
 * Which of the two code caches a run starts from (scripts/code-cache.mjs trains both).
 * V8 deserialises the whole cache before the first line runs, ~12 µs per KB here: one cache
 * holding both the remote and the --local path (1.16 MB) made every remote run pay for the
 * embedded server's zod, Hono and store code it never runs. So `cli.js.cache` holds a remote
 * `finance summary --json` (655 KB) and `cli.js.local.cache` a `--local` one; `--local`, and
 * `cr serve` or `cr local …` written first, take the latter. A wrong guess (`cr --profile p serve`)
 * only compiles what the other cache lacks, as before there was one.
 */
export function runsServerCode(argv: string[]): boolean {
  return argv.includes('--local') || argv[0] === 'serve' || argv[0] === 'local';
}

/** Commands that run for long: they keep zod's compiled parsers. */
const LONG_RUNNING = new Set(['serve', 'mcp']);

/**
 * zod 4 compiles a parser for each object schema with `new Function` on its first parse
 * (its "JIT"). That pays off over many parses, but a CLI run parses a few bodies once (and
 * --local's embedded server validates the store once): the compiles, outside the V8 code
 * cache, cost more than they save (~10 % of `cr finance summary --local`). zod's `jitless`
 * setting skips only that fast path; every check runs the same. It is set through zod's
 * shared config slot (what `z.config()` writes, zod/v4/core/core.js) before the bundle runs,
 * so no schema is made without it and a run that never loads zod (`cr --help`, a remote
 * `finance summary`, test/e2e/startup.test.ts) still does not load it. `cr serve` and the
 * `cr mcp` bridge live long enough for the JIT to pay, so they keep it.
 */
export function zodWithoutJit(argv: string[]): void {
  if (argv.some((a) => LONG_RUNNING.has(a))) return;
  const slot = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
  slot.__zod_globalConfig = { ...slot.__zod_globalConfig, jitless: true };
}

function readOptional(file: string): Buffer | undefined {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeAtomically(file: string, data: Buffer): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, file);
}
