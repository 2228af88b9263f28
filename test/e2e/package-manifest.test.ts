import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HOMEPAGE } from '../../src/cli/help-docs.js';
import { ROOT } from '../helpers/cli.js';
import { spawnProcess } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

/**
 * A clean package (docs/install.md "Publishing"): the tarball scripts/pack.mjs makes, extracted
 * as npm would, has a manifest without scripts (nothing for npm 11's allowScripts to warn about)
 * and no dead link in its README and docs; a plain `npm pack` in the checkout, which would ship
 * the build scripts, stops and names `npm run build:package`. Processes: npm and tar are the
 * subject. The installed package itself: package-install.test.ts.
 */
afterAll(() => cleanupTempDirs());

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { homepage: string; scripts: Record<string, string> };
const base = pkg.homepage.replace(/#.*$/, '');
const env = () => ({ PATH: [dirname(process.execPath), '/usr/local/bin', '/usr/bin', '/bin'].join(':'), HOME: tempDir('cr-pkgm-home-'), npm_config_update_notifier: 'false' });

let unpacked: string;

beforeAll(async () => {
  const dest = tempDir('cr-pkgm-tgz-');
  const pack = await spawnProcess(process.execPath, [join(ROOT, 'scripts', 'pack.mjs'), '--destination', dest], { cwd: ROOT, env: env(), timeoutMs: 120_000 });
  expect(pack.exitCode, pack.stderr).toBe(0);
  unpacked = tempDir('cr-pkgm-x-');
  const tar = await spawnProcess('tar', ['-xzf', pack.stdout.trim(), '-C', unpacked], { env: env() });
  expect(tar.exitCode, tar.stderr).toBe(0);
  unpacked = join(unpacked, 'package');
}, 180_000);

/** Every markdown file of the package, as package paths. */
function markdownFiles(dir = unpacked, rel = ''): string[] {
  return readdirSync(join(dir, rel), { withFileTypes: true }).flatMap((e) => {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) return markdownFiles(dir, path);
    return e.name.endsWith('.md') ? [path] : [];
  });
}

describe('the packed package', () => {
  it('has a manifest with no scripts and no devDependencies, while the checkout keeps prepare', () => {
    const manifest = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
    expect(manifest).not.toHaveProperty('scripts');
    expect(manifest).not.toHaveProperty('devDependencies');
    expect(pkg.scripts.prepare).toBe('npm run build');
  });

  it('every link of its README and docs resolves inside the package or is an absolute URL on the project home', () => {
    const files = markdownFiles();
    expect(files).toContain('README.md');
    expect(files).toContain('docs/output.md');
    const dead: string[] = [];
    for (const file of files) {
      const text = readFileSync(join(unpacked, file), 'utf8');
      for (const m of text.matchAll(/\]\(([^)\s]+)\)|^\[[^\]]+\]:\s+(\S+)/gm)) {
        const target = (m[1] ?? m[2])!;
        if (target.startsWith('#')) continue;
        if (/^[a-z]+:/i.test(target)) {
          // An absolute link to the project's own files is on its home; others (Node, npm, jq) are left as written.
          if (target.includes('cr-cli/cr') && !target.startsWith(base)) dead.push(`${file}: ${target}`);
          continue;
        }
        const path = posix.normalize(posix.join(posix.dirname(file), target.replace(/[#?].*$/, '')));
        if (!existsSync(join(unpacked, path))) dead.push(`${file}: ${target}`);
      }
    }
    expect(dead).toEqual([]);
    expect(readFileSync(join(unpacked, 'README.md'), 'utf8')).toContain(`${base}/blob/HEAD/CONTRIBUTING.md`);
  });

  it('the help names the project home (the same as package.json "homepage")', () => {
    expect(HOMEPAGE).toBe(pkg.homepage);
  });
});

describe('npm pack in the checkout', () => {
  it('stops before packing, naming npm run build:package', async () => {
    const dest = tempDir('cr-pkgm-plain-');
    const r = await spawnProcess('npm', ['pack', '--pack-destination', dest], { cwd: ROOT, env: env(), timeoutMs: 60_000 });
    expect(r.exitCode).not.toBe(0);
    expect(r.stderr).toContain('npm run build:package');
    expect(readdirSync(dest)).toEqual([]);
  }, 60_000);
});
