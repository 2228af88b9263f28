import { createRequire } from 'node:module';
import { isSea } from 'node:sea';

/**
 * Where the --jq worker (src/render/jq.ts) loads jq-web from. From the package: jq-web's own
 * file in node_modules, which finds its jq.wasm beside it (it stays out of the bundle,
 * scripts/bundle.mjs). In the single executable (scripts/build-sea.mjs) there is no
 * node_modules: jq.js and jq.wasm are embedded assets, read with node:sea.
 */
export function jqSource(): { path?: string } {
  if (isSea()) return {};
  return { path: createRequire(import.meta.url).resolve('jq-web') };
}

/**
 * The worker's side (source text for src/render/jq-worker.ts): `embeddedJq()` gives jq-web's
 * jq.js from the single executable's asset, under a folder that exists nowhere, with a
 * `require` whose fs answers Emscripten's readFileSync of `<that folder>/jq.wasm` from the
 * asset too, so neither file is read from disk.
 */
export const EMBEDDED_JQ = `function embeddedJq() {
  const sea = require('node:sea');
  const fs = require('node:fs');
  const dir = '/cr-single-executable';
  const wasm = Buffer.from(sea.getAsset('jq.wasm'));
  const fsFromAssets = { ...fs, readFileSync: (f, o) => (String(f) === dir + '/jq.wasm' ? wasm : fs.readFileSync(f, o)) };
  return { path: dir + '/jq.js', source: sea.getAsset('jq.js', 'utf8'), require: (id) => (id === 'fs' || id === 'node:fs' ? fsFromAssets : require(id)) };
}`;
