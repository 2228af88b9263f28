// Bundles the CLI (and its dependencies) into dist/bundle with code splitting, so that
// `cr` resolves and parses a handful of files instead of hundreds: module resolution is
// most of a CLI's start-up time. Lazy `import()`s stay lazy as separate chunks.
// dist/bundle/inputs.json maps each output file to the sources inside it, so tests can
// tell which modules a run really loaded.
import { writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const result = await build({
  entryPoints: { cr: 'src/main.ts' },
  outdir: 'dist/bundle',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  metafile: true,
  // CommonJS dependencies (undici, cli-table3) call require(); give ESM chunks one.
  banner: { js: 'import{createRequire as __crRequire}from"node:module";const require=__crRequire(import.meta.url);' },
  logLevel: 'warning',
  legalComments: 'none',
});

const inputs = {};
for (const [file, out] of Object.entries(result.metafile.outputs)) {
  inputs[file.replace(/^dist\/bundle\//, '')] = Object.keys(out.inputs);
}
writeFileSync('dist/bundle/inputs.json', JSON.stringify(inputs, null, 1) + '\n');
