// Writes the files generated from the endpoint table (src/api/generated-files.ts lists them:
// routes, request and response JSON Schemas under src/api/generated/), or with --check only
// compares them and fails naming the command that rewrites them (`npm run lint` runs that).
// The table is TypeScript with zod: esbuild compiles it into dist/gen first, so generation
// needs no `tsc` run (which could not compile against a stale generated file), and
// `npm run build` runs this before tsc. A file is rewritten only when its text changes.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const check = process.argv.includes('--check');
const out = 'dist/gen/generated-files.mjs';
await build({
  entryPoints: ['src/api/generated-files.ts'],
  outfile: out,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // zod stays in node_modules, imported from there.
  packages: 'external',
  logLevel: 'warning',
});
const { generatedFiles, REGENERATE } = await import(`${pathToFileURL(out).href}?${Date.now()}`);

const read = (path) => {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
};
const stale = [];
for (const { path, text } of generatedFiles()) {
  if (read(path) === text) continue;
  if (check) {
    stale.push(path);
    continue;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  console.log(`wrote ${path}`);
}
if (stale.length) {
  console.error(
    `${stale.join(', ')} ${stale.length === 1 ? 'differs' : 'differ'} from what the endpoint table (src/api/endpoints.ts) generates: run \`${REGENERATE}\` and commit the result`,
  );
  process.exit(1);
}
if (check) console.log('generated API files are up to date');
