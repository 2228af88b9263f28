import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { BIN, NODE, PKG_VERSION, ROOT } from '../helpers/cli.js';
import { spawnProcess } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

/**
 * The package as a user gets it (README "Install"): the tarball scripts/pack.mjs makes (what
 * `npm run build:package` publishes, from the suite's own build: test/global-setup.ts), then
 * `npm install --global` of it into a temporary prefix, then `cr` run from another folder with
 * the Node under test (CR_TEST_NODE, else the one running this test). Dependencies come from the npm registry, preferring the local
 * npm cache.
 */
afterAll(() => cleanupTempDirs());

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  bin: Record<string, string>;
  license: string;
  repository: { url: string };
  homepage: string;
  bugs: { url: string };
};
const NOW = '2026-11-22T09:00:00Z';

/** The Node under test first on PATH (npm's shebang and the installed `cr`'s both say `env node`). */
const PATH = [dirname(NODE), '/usr/local/bin', '/usr/bin', '/bin'].join(':');
const npmBin = existsSync(join(dirname(NODE), 'npm')) ? join(dirname(NODE), 'npm') : 'npm';

/** The caller's npm cache when it has one (offline-friendly), else a fresh one. */
function npmCache(): string {
  const own = process.env.npm_config_cache ?? join(homedir(), '.npm');
  return existsSync(join(own, '_cacache')) ? own : tempDir('cr-npm-cache-');
}

/**
 * How this machine's npm reaches its registry (a proxy's CA as `cafile`, a registry): its
 * global npmrc, `<node's prefix>/etc/npmrc`. A global install with --prefix reads
 * `<that prefix>/etc/npmrc` instead, and the test's HOME has no .npmrc, so without this the
 * registry's certificate may be refused whenever the jq-web dependency is not in the npm cache
 * (.ci/run must pass with HOME set to anything). Only the file's name is passed on.
 */
function registrySettings(): Record<string, string> {
  const globalrc = join(dirname(dirname(process.execPath)), 'etc', 'npmrc');
  return existsSync(globalrc) ? { npm_config_globalconfig: globalrc } : {};
}

let home: string;
let prefix: string;
let files: string[];
let manifest: Record<string, unknown>;
let install: { exitCode?: number; stderr: string };
let npmEnv: Record<string, string>;

const npm = (args: string[], cwd: string) => spawnProcess(npmBin, args, { cwd, env: npmEnv, timeoutMs: 240_000 });

beforeAll(async () => {
  home = tempDir('cr-pkg-home-');
  prefix = tempDir('cr-pkg-prefix-');
  npmEnv = {
    PATH,
    HOME: home,
    npm_config_cache: npmCache(),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    LANG: 'C.UTF-8',
    ...registrySettings(),
  };
  const pack = await spawnProcess(process.execPath, [join(ROOT, 'scripts', 'pack.mjs'), '--destination', tempDir('cr-pkg-tgz-')], {
    cwd: ROOT,
    env: npmEnv,
    timeoutMs: 120_000,
  });
  expect(pack.exitCode, pack.stderr).toBe(0);
  const tarball = pack.stdout.trim();
  const listing = await spawnProcess('tar', ['-tzf', tarball], { env: npmEnv });
  files = listing.stdout.split('\n').map((f) => f.replace(/^package\//, ''));
  manifest = JSON.parse((await spawnProcess('tar', ['-xzOf', tarball, 'package/package.json'], { env: npmEnv })).stdout);
  install = await npm(['install', '--global', '--prefix', prefix, '--prefer-offline', tarball], home);
  expect(install.exitCode, install.stderr).toBe(0);
}, 300_000);

/** The installed `cr`, run from a folder of its own with a complete environment of its own. */
async function installedCr(args: string[], env: Record<string, string> = {}) {
  const cwd = tempDir('cr-pkg-cwd-');
  return spawnProcess(join(prefix, 'bin', 'cr'), args, {
    cwd,
    env: { PATH, HOME: home, CR_CONFIG_DIR: join(cwd, 'config'), NO_COLOR: '1', LANG: 'C.UTF-8', ...env },
    timeoutMs: 30_000,
    execa: { stripFinalNewline: false },
  });
}

describe(`the packed package (${pkg.name})`, () => {
  it('is named for the registry, with the command still `cr`, and says where it comes from', () => {
    expect(pkg.name).not.toBe('cr');
    expect(Object.keys(pkg.bin)).toEqual(['cr']);
    expect(pkg.license).toBe('MIT');
    expect(readFileSync(join(ROOT, 'LICENSE'), 'utf8')).toMatch(/^MIT License\n/);
    for (const url of [pkg.repository.url, pkg.homepage, pkg.bugs.url]) expect(url).toMatch(/^(git\+)?https:\/\//);
  });

  it('carries the launcher, the bundle, its code caches, the licence and the docs; no sources, tests or source maps', () => {
    for (const f of ['LICENSE', 'README.md', 'package.json', 'bin/cr.js', 'bin/package.json', 'dist/bundle/launch.cjs', 'dist/bundle/cli.js', 'dist/bundle/cli.js.cache']) expect(files).toContain(f);
    expect(files.filter((f) => /^(src|test|commands|scripts|bench|dist\/src)\/|\.map$/.test(f))).toEqual([]);
  });

  it('publishes a manifest without scripts, so npm installs it without an install-scripts warning', () => {
    expect(manifest).toMatchObject({ name: pkg.name, bin: pkg.bin, license: 'MIT' });
    expect(manifest).not.toHaveProperty('scripts');
    expect(manifest).not.toHaveProperty('devDependencies');
    expect(install.stderr).not.toMatch(/install-scripts|allowScripts/);
  });

  it('carries every file that a message or a schema description of the CLI points to', () => {
    const cited = new Set(readFileSync(join(ROOT, 'dist', 'bundle', 'cli.js'), 'latin1').match(/\b(?:README|CONTRIBUTING)\.md|docs\/[\w-]+\.md/g) ?? []);
    expect(cited.size).toBeGreaterThan(0);
    expect([...cited].filter((f) => !files.includes(f))).toEqual([]);
  });
});

describe('cr installed from the tarball with npm install --global', () => {
  it("is what the README's install section runs", () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    const block = /## Install\n\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(block).toBe(`npm install --global ${pkg.name}\ncr --version\n`);
  });

  it('answers --version from another folder', async () => {
    const r = await installedCr(['--version']);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toBe(`${PKG_VERSION}\n`);
  });

  it('runs finance summary --local --json, byte for byte what bin/cr.js prints on the same fresh store', async () => {
    const run = async (viaInstalled: boolean) => {
      const store = join(tempDir('cr-pkg-store-'), 'store.json');
      const env = { CR_STORE: store, CR_NOW: NOW };
      if (viaInstalled) return installedCr(['finance', 'summary', '--local', '--json'], env);
      const cwd = tempDir('cr-pkg-cwd-');
      return spawnProcess(NODE, [BIN, 'finance', 'summary', '--local', '--json'], {
        cwd,
        env: { PATH, HOME: home, CR_CONFIG_DIR: join(cwd, 'config'), NO_COLOR: '1', LANG: 'C.UTF-8', ...env },
        execa: { stripFinalNewline: false },
      });
    };
    const [installed, checkout] = [await run(true), await run(false)];
    expect(installed.exitCode, installed.stderr).toBe(0);
    expect(JSON.parse(installed.stdout).summaries.length).toBeGreaterThan(0);
    expect(installed.stdout).toBe(checkout.stdout);
  });

  it('filters with --jq through the jq-web it installed', async () => {
    const r = await installedCr(['finance', 'summary', '--local', '--jq', '.summaries | length'], { CR_STORE: join(tempDir('cr-pkg-store-'), 'store.json') });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(Number(r.stdout)).toBeGreaterThan(0);
  });

  it('cr version --json names the installed start-up cache and the platform', async () => {
    const r = await installedCr(['version', '--json']);
    expect(r.exitCode, r.stderr).toBe(0);
    const info = JSON.parse(r.stdout);
    expect(info).toMatchObject({ version: PKG_VERSION, platform: process.platform, arch: process.arch, singleExecutable: false });
    if (NODE === process.execPath) expect(info.node).toBe(process.version);
    // The installed package's cache, or on another Node line the per-user one in this HOME.
    expect(info.startupCache.kind).not.toBe('none');
    expect([prefix, home].some((dir) => info.startupCache.location?.startsWith(dir))).toBe(true);
  });
});
