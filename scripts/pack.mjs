// Makes the tarball to publish (README "Install"): `npm run build:package` builds, then writes
// dist/cr-cli-<version>.tgz (or into --destination DIR); `npm publish ./dist/cr-cli-<version>.tgz`
// (with the `./`: npm reads `dist/cr-cli-…tgz` as a GitHub repository, owner `dist`).
//
// Why not `npm pack` in the checkout: its package.json has a `prepare` script (it builds `cr`
// after `npm install` in a clone, README "Quick start"), and npm warns on every install of a
// package that carries one ("install scripts not yet covered by allowScripts"), although an
// installed cr needs no script at all. So the files npm itself would pack (`files`) are staged
// with a package.json that has no scripts and no devDependencies, and packed from there; a plain
// `npm pack` or `npm publish` in the checkout stops at `prepack` (scripts/no-checkout-pack.mjs).
// The README and docs are staged with every link to a file the package does not carry made an
// absolute URL on the project's home (scripts/package-links.mjs).
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { projectBase, rewriteLinks } from './package-links.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const at = process.argv.indexOf('--destination');
const destination = resolve(at > 0 ? process.argv[at + 1] : join(ROOT, 'dist'));
const npm = (args, cwd) => execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

if (!existsSync(join(ROOT, 'dist', 'bundle', 'cli.js'))) throw new Error('scripts/pack.mjs: dist/bundle/cli.js is missing; run `npm run build` first');

// npm's own choice of files (package.json `files`, plus README, LICENSE and package.json).
const [{ files }] = JSON.parse(npm(['pack', '--dry-run', '--json', '--ignore-scripts'], ROOT));
const stage = mkdtempSync(join(tmpdir(), 'cr-package-'));
const { scripts, devDependencies, ...manifest } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const shipped = new Set(files.map((f) => f.path));
for (const { path } of files) {
  if (path === 'package.json') continue;
  mkdirSync(join(stage, dirname(path)), { recursive: true });
  if (path.endsWith('.md'))
    writeFileSync(join(stage, path), rewriteLinks(path, readFileSync(join(ROOT, path), 'utf8'), shipped, projectBase(manifest.homepage)));
  else cpSync(join(ROOT, path), join(stage, path));
}
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);

mkdirSync(destination, { recursive: true });
const [{ filename }] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', destination], stage));
rmSync(stage, { recursive: true, force: true });
console.log(join(destination, filename));
