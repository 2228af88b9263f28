import { getAsset } from 'node:sea';
import { Script, constants as vmConstants } from 'node:vm';
import { runsServerCode, withCacheChecksum, zodWithoutJit } from './run-bundle.js';
import { recordCodeCache, startupCache } from './startup-cache.js';
import { answerVersion } from './version.js';

/**
 * The single executable's entry (Node's single executable applications; scripts/build-sea.mjs
 * builds it into dist/sea/cr). It does what src/startup/launch.ts and src/startup/run-bundle.ts do for
 * bin/cr.js, with every file taken from the executable's embedded assets instead of the disk:
 * the CLI bundle (dist/bundle/cli.js), the two V8 code caches the build trained for it
 * (the same Node binary runs them, so V8 accepts them) and, for --jq, jq-web's jq.js and
 * jq.wasm (src/render/jq-source.ts). Nothing is read from a node_modules folder: the bundle
 * gets this entry's `require`, which in a single executable loads Node's built-in modules only.
 */
type BundleFn = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

/** Where the bundle says it lives: its stack frames name the executable, and no file is read there. */
const BUNDLE_NAME = 'cli.js';

function main(): void {
  const argv = process.argv.slice(2);
  if (answerVersion(argv, process.stdout)) return;
  // The zod setting run-bundle.ts gives the bundle: the code caches were trained with it.
  zodWithoutJit(argv);
  // The bundle is ASCII (esbuild charset: 'ascii'), so latin1 reads it exactly.
  const source = Buffer.from(getAsset(BUNDLE_NAME)).toString('latin1');
  const cacheKey = `${BUNDLE_NAME}${runsServerCode(argv) ? '.local' : ''}.cache`;
  const cachedData = optionalAsset(cacheKey);
  const filename = `${process.execPath}/${BUNDLE_NAME}`;
  const script = withCacheChecksum(() => new Script(source, { filename, cachedData, importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER }));
  recordCodeCache(`embedded asset ${cacheKey}`, cachedData, script);
  if (process.env.CR_STARTUP_DEBUG) process.stderr.write(`cr: code cache ${startupCache().status} (embedded asset ${cacheKey})\n`);
  const mod = { exports: {} as { main?: () => Promise<void> } };
  (script.runInThisContext() as BundleFn)(mod.exports, require, mod, filename, process.execPath);
  void mod.exports.main!();
}

/** An asset the build may have left out (a build whose code cache failed still works, slower). */
function optionalAsset(key: string): Buffer | undefined {
  try {
    return Buffer.from(getAsset(key));
  } catch {
    return undefined;
  }
}

main();
