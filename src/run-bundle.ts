import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { Script, constants as vmConstants } from 'node:vm';

/**
 * Runs the CLI bundle (dist/bundle/cli.js) compiled from the V8 code cache that the build
 * made (dist/bundle/cli.js.cache, scripts/code-cache.mjs). src/launch.ts calls it.
 *
 * Why: parsing and compiling ~2 MB of bundled JavaScript (zod, undici, commander) was
 * about a third of a `cr finance summary` run. Node 20 has no compile cache for modules
 * (module.enableCompileCache is Node 22), but vm.Script takes V8's cached data, which
 * holds the bytecode of every function the training run executed. A cache V8 rejects
 * (another Node version, other V8 flags) only costs the compile it would have saved.
 *
 * The bundle is one function expression (its banner and footer), so the file's offsets are
 * the script's own, and coverage or stack positions map straight onto dist/bundle/cli.js.map.
 */
type BundleFn = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

export function runBundle(): void {
  // undici parses HTTP with llhttp compiled to WebAssembly. V8 optimises hot wasm in
  // background threads that process exit must wait for: ~40 ms a run for a CLI making one
  // or two requests. The baseline compiler alone is plenty for that. Set before compiling:
  // V8's flags are part of what a code cache must match.
  setFlagsFromString('--liftoff-only');
  const bundle = join(import.meta.dirname, 'cli.js');
  const cacheFile = `${bundle}.cache`;
  let source: string;
  try {
    // The build emits ASCII only (esbuild charset: 'ascii'), so latin1 reads it exactly
    // and skips UTF-8 decoding of 2 MB.
    source = readFileSync(bundle, 'latin1');
  } catch {
    process.stderr.write(`cr: ${bundle} is missing; run \`npm run build\`\n`);
    process.exit(1);
  }
  const cachedData = readOptional(cacheFile);
  const script = new Script(source, {
    filename: bundle,
    cachedData,
    importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (process.env.CR_STARTUP_DEBUG) {
    const state = !cachedData ? 'missing' : script.cachedDataRejected ? 'rejected' : 'accepted';
    process.stderr.write(`cr: code cache ${state} (${cacheFile})\n`);
  }
  const out = process.env.CR_CODE_CACHE_OUT;
  // Build only: keep the bytecode of everything this run compiled, once it is done.
  if (out) process.once('exit', () => writeAtomically(out, script.createCachedData()));
  const mod = { exports: {} as { main?: () => Promise<void> } };
  (script.runInThisContext() as BundleFn)(mod.exports, createRequire(bundle), mod, bundle, dirname(bundle));
  void mod.exports.main!();
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
