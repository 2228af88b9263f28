// Bundles the CLI and its dependencies with esbuild, then makes its V8 code cache:
//
//   dist/bundle/launch.cjs     what bin/cr.js runs (src/startup/launch.ts): --version, then the bundle
//   dist/bundle/cli.js         src/main.ts and everything it imports, as one function
//                              expression (CommonJS inside); lazy import()s stay lazy
//   dist/bundle/cli.js.map     its source map (not loaded at run time; tests map V8
//                              coverage through it to tell which sources a run executed)
//   dist/bundle/cli.js.cache   V8 code cache from a training run (scripts/code-cache.mjs)
//
// One file instead of hundreds because module resolution was most of a CLI's start-up;
// CommonJS instead of ESM because only a classic script can take V8's cached data on Node 20.
// What the bundle defers of commander: scripts/bundle-plugin.mjs.
import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';
import { startupPlugin } from './bundle-plugin.mjs';

// Both bundles answer version() from a constant (src/startup/version.ts): no package.json read.
const { version } = JSON.parse(readFileSync('package.json', 'utf8'));
const { buildDefines } = await import('./build-meta.mjs');

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  // ASCII output: the launcher reads it as latin1, without UTF-8 decoding.
  charset: 'ascii',
  legalComments: 'none',
  logLevel: 'warning',
  // The sources are ESM; import.meta.url becomes the bundle file's URL. The commit and build
  // date are constants too (scripts/build-meta.mjs, `cr version`).
  define: { 'import.meta.url': '__crBundleUrl', ...buildDefines(), __CR_VERSION__: JSON.stringify(version) },
};
const bundleUrl = 'const __crBundleUrl=require("node:url").pathToFileURL(__filename).href;';

rmSync('dist/bundle', { recursive: true, force: true });
await build({
  ...common,
  entryPoints: ['src/main.ts'],
  outfile: 'dist/bundle/cli.js',
  plugins: [startupPlugin],
  // jq-web finds its jq.wasm beside its own file: it stays in node_modules, required only for --jq.
  external: ['jq-web'],
  // `debug` (the proxy agents' logger) would print the proxy password and the key when DEBUG
  // is set: the bundle gets a logger that never writes (scripts/debug-off.mjs).
  alias: { debug: './scripts/debug-off.mjs' },
  sourcemap: 'external',
  sourcesContent: false,
  // A function expression the launcher compiles and calls like Node's module wrapper; strict
  // like the ESM sources it comes from.
  banner: { js: `(function(exports,require,module,__filename,__dirname){"use strict";${bundleUrl}` },
  footer: { js: '})' },
});
// The launcher answers --version from the constant and finds the bundle through __dirname:
// no package.json read and no node:url on the shortest path. It names the bundle (a per-user
// code cache belongs to one bundle: V8 checks only the source's length) and the Node that
// makes dist/bundle/*.cache (src/startup/code-cache-file.ts).
const bundleId = createHash('sha256').update(readFileSync('dist/bundle/cli.js')).digest('hex').slice(0, 16);
await build({
  ...common,
  entryPoints: ['src/startup/launch.ts'],
  outfile: 'dist/bundle/launch.cjs',
  define: {
    ...common.define,
    'import.meta.dirname': '__dirname',
    __CR_BUNDLE_ID__: JSON.stringify(bundleId),
    __CR_BUILD_NODE__: JSON.stringify(`${process.version}-${process.arch}`),
  },
});
await import('./code-cache.mjs');
// Last: the pages are what this bundle prints (scripts/help-pages.mjs).
await import('./help-pages.mjs');
