// Builds the single executable, dist/sea/cr, with Node's single executable applications (SEA),
// as Node 20's documentation describes them: a preparation blob made by
// `node --experimental-sea-config`, injected with postject into a copy of the Node binary that
// runs this script. `npm run build:sea` runs `npm run build` first: the executable embeds
//
//   dist/sea/main.cjs             the entry (src/startup/sea-main.ts), with V8's code cache (useCodeCache)
//   dist/bundle/cli.js            the CLI bundle, as asset `cli.js`
//   dist/bundle/cli.js*.cache     its two V8 code caches (scripts/code-cache.mjs), same Node binary
//   node_modules/jq-web/jq.js     jq for --jq, and its jq.wasm (src/render/jq-source.ts)
//
// The result runs on the OS and architecture of the Node that built it (here Linux x64), and
// needs no Node, npm or node_modules at run time.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { build } from 'esbuild';
import { buildDefines, version } from './build-meta.mjs';

const OUT = 'dist/sea';
const BIN = join(OUT, process.platform === 'win32' ? 'cr.exe' : 'cr');
// The fuse Node's binary carries for postject to flip (Node's SEA documentation).
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

const require = createRequire(import.meta.url);
const jqWeb = join(require.resolve('jq-web/package.json'), '..');

/** A build that cannot go on: one line saying why, exit 1, and no dist/sea/cr left behind. */
function fail(message) {
  rmSync(OUT, { recursive: true, force: true });
  console.error(`scripts/build-sea.mjs: ${message}`);
  process.exit(1);
}

// Everything is checked before anything is written: a failed build must not leave a
// dist/sea/cr behind, least of all a plain copy of Node (what it is before postject runs).
if (!existsSync('dist/bundle/cli.js')) fail('dist/bundle/cli.js is missing; run `npm run build:sea` (it builds first)');
// The code caches embedded beside the bundle are V8's, made by the Node that ran `npm run build`
// (scripts/code-cache.mjs); the executable is this Node. Another Node would reject them on every
// run, so the two must be the same. scripts/bundle.mjs writes the builder into the launcher.
const builtBy = /"(v\d+\.\d+\.\d+-[a-z0-9]+)"/.exec(readFileSync('dist/bundle/launch.cjs', 'utf8'))?.[1];
const thisNode = `${process.version}-${process.arch}`;
if (builtBy !== thisNode) {
  fail(
    `dist/bundle was built with Node ${builtBy ?? '(unknown)'}, not this Node (${thisNode}): run \`npm run build:sea\` with the Node to embed (it rebuilds with that Node)`,
  );
}
let postject;
try {
  postject = require.resolve('postject/dist/cli.js');
} catch {
  fail('postject is not installed (a devDependency): run `npm install` in the checkout, without --omit=dev');
}
rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });

await build({
  entryPoints: ['src/startup/sea-main.ts'],
  outfile: join(OUT, 'main.cjs'),
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
  // run-bundle.ts is imported for two helpers; its own entry (and import.meta) is not used here.
  define: { ...buildDefines(), 'import.meta.dirname': '__dirname' },
});

const assets = {
  'cli.js': 'dist/bundle/cli.js',
  'jq.js': join(jqWeb, 'jq.js'),
  'jq.wasm': join(jqWeb, 'jq.wasm'),
};
for (const cache of ['cli.js.cache', 'cli.js.local.cache']) {
  const file = join('dist/bundle', cache);
  if (existsSync(file)) assets[cache] = file;
  else console.warn(`warning: ${file} is missing: the single executable starts without it (slower)`);
}
const config = join(OUT, 'sea-config.json');
const blob = join(OUT, 'sea-prep.blob');
writeFileSync(config, JSON.stringify({ main: join(OUT, 'main.cjs'), output: blob, disableExperimentalSEAWarning: true, useCodeCache: true, assets }, null, 2));

const quiet = { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' };
function run(file, args, options = {}) {
  try {
    return execFileSync(file, args, { ...quiet, ...options });
  } catch (err) {
    process.stderr.write(`${err.stdout ?? ''}${err.stderr ?? ''}`);
    fail(`${file} ${args.join(' ')} failed`);
  }
}

run(process.execPath, ['--experimental-sea-config', config]);
copyFileSync(process.execPath, BIN);
chmodSync(BIN, 0o755);
run(process.execPath, [postject, BIN, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE]);
rmSync(blob);

// The executable answers by itself, with nothing of this machine's Node on PATH.
const env = { PATH: '', HOME: OUT, CR_CONFIG_DIR: OUT };
const said = run(BIN, ['--version'], { env }).trim();
if (said !== version) fail(`${BIN} --version said ${JSON.stringify(said)}, not ${version}`);
const info = JSON.parse(run(BIN, ['version', '--json'], { env }));
// The embedded caches come from this same Node (checked above), so a rejected one means the
// entry reads the caches under other V8 flags than the training runs made them with
// (src/startup/run-bundle.ts, withCacheChecksum): a defect of the entry, and every run of the
// executable would pay for it.
if (info.startupCache.status === 'rejected')
  fail(`${BIN} rejects its embedded code cache: src/startup/sea-main.ts must read them as src/startup/run-bundle.ts does (withCacheChecksum)`);
if (!info.startupCache.inUse) console.warn(`warning: the single executable does not use its code cache (${info.startupCache.status})`);
const mb = (statSync(BIN).size / 2 ** 20).toFixed(1);
console.log(`${BIN}: cr ${version}, Node ${process.version}, ${process.platform}-${process.arch}, ${mb} MiB`);
