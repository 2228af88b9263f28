import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runBin } from '../helpers/cli.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { runProcessSync } from '../helpers/process.js';

afterAll(() => cleanupTempDirs());

/**
 * The per-user V8 code cache (src/startup/code-cache-file.ts; CONTRIBUTING.md, "How cr starts"). A
 * Node option (`--no-warnings`, which changes nothing else) makes any Node, the builder's
 * included, take the per-user cache instead of the build's; .ci/run runs this file on every
 * supported Node line (CR_TEST_NODE), where the build's cache never fits.
 */
const FLAGGED = ['--no-warnings'];

function env(home: string, extra: Record<string, string> = {}) {
  return { CR_STARTUP_DEBUG: '1', HOME: home, CR_STORE: join(home, 'store.json'), ...extra };
}

/** The code cache line a run printed: its state and file (or why there is none). */
function cacheLine(stderr: string): { state: string; where: string } {
  const m = /^cr: code cache (\w+) \((.*)\)$/m.exec(stderr);
  if (!m) throw new Error(`no code cache line in: ${stderr}`);
  return { state: m[1]!, where: m[2]! };
}

const local = (home: string, extra: Record<string, string> = {}, nodeArgs = FLAGGED, output = ['--json']) =>
  runBin(['finance', 'summary', '--local', ...output], { env: env(home, extra), nodeArgs, configDir: join(home, 'config') });

describe('the per-user code cache', () => {
  it('the first run makes it (0600 in a 0700 folder under XDG_CACHE_HOME) and V8 accepts it on the second', async () => {
    const home = tempDir('cr-home-');
    const xdg = join(home, 'xdg-cache');
    const first = await local(home, { XDG_CACHE_HOME: xdg });
    expect(first.exitCode, first.stderr).toBe(0);
    const made = cacheLine(first.stderr);
    expect(made.state).toBe('missing');
    expect(made.where.startsWith(join(xdg, 'cr', 'v8', 'cli-'))).toBe(true);
    expect(made.where).toMatch(/\.local\.cache$/);
    expect(statSync(made.where).mode & 0o777).toBe(0o600);
    expect(statSync(join(xdg, 'cr', 'v8')).mode & 0o777).toBe(0o700);
    const second = await local(home, { XDG_CACHE_HOME: xdg });
    expect(second.exitCode, second.stderr).toBe(0);
    expect(cacheLine(second.stderr)).toEqual({ state: 'accepted', where: made.where });
    // A remote kind of run has a cache of its own; help teaches nothing and makes none (with
    // an option beside it, help comes from the bundle, not from a page: src/startup/help-pages.ts).
    const help = await runBin(['--json', '--help'], { env: env(home, { XDG_CACHE_HOME: xdg }), nodeArgs: FLAGGED });
    expect(cacheLine(help.stderr).state).toBe('missing');
    expect(readdirSync(join(xdg, 'cr', 'v8'))).toEqual([made.where.split('/').pop()]);
  });

  it('a --jq run makes no cache: jq sets a V8 flag, and a cache made under it would be rejected by the next run', async () => {
    const home = tempDir('cr-home-');
    const xdg = join(home, 'xdg-cache');
    const JQ = ['--jq', '.summaries | length'];
    const made = await local(home, { XDG_CACHE_HOME: xdg });
    expect(made.exitCode, made.stderr).toBe(0);
    const withJq = await local(home, { XDG_CACHE_HOME: xdg }, FLAGGED, JQ);
    expect(withJq.exitCode, withJq.stderr).toBe(0);
    expect(cacheLine(withJq.stderr).state).toBe('accepted');
    rmSync(cacheLine(withJq.stderr).where);
    // The first run after the cache went is a --jq one: it makes none …
    const first = await local(home, { XDG_CACHE_HOME: xdg }, FLAGGED, JQ);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(cacheLine(first.stderr).state).toBe('missing');
    expect(existsSync(cacheLine(first.stderr).where)).toBe(false);
    // … and the next plain run makes one that V8 accepts after it.
    await local(home, { XDG_CACHE_HOME: xdg });
    expect(cacheLine((await local(home, { XDG_CACHE_HOME: xdg })).stderr).state).toBe('accepted');
  });

  it('without Node options a second run starts from an accepted cache on this Node line (the build’s or its own)', async () => {
    const home = tempDir('cr-home-');
    await local(home, {}, []);
    const second = await local(home, {}, []);
    expect(second.exitCode, second.stderr).toBe(0);
    expect(cacheLine(second.stderr).state).toBe('accepted');
  });

  it('a relative XDG_CACHE_HOME is ignored (XDG base directory spec): ~/.cache is used', async () => {
    const home = tempDir('cr-home-');
    const r = await local(home, { XDG_CACHE_HOME: 'relative/cache' });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(cacheLine(r.stderr).where.startsWith(join(home, '.cache', 'cr', 'v8', 'cli-'))).toBe(true);
  });

  it('a cache folder others can write is neither read nor written', async () => {
    const home = tempDir('cr-home-');
    const dir = join(home, '.cache', 'cr', 'v8');
    mkdirSync(dir, { recursive: true });
    chmodSync(dir, 0o777);
    for (const run of ['first', 'second']) {
      const r = await local(home);
      expect(r.exitCode, `${run}: ${r.stderr}`).toBe(0);
      expect(cacheLine(r.stderr)).toEqual({ state: 'off', where: `${dir} not used: writable by others (mode 777)` });
    }
    expect(readdirSync(dir)).toEqual([]);
    // Made safe, it is used again.
    chmodSync(dir, 0o700);
    await local(home);
    expect(cacheLine((await local(home)).stderr).state).toBe('accepted');
  });

  it.skipIf(process.getuid?.() !== 0)('a cache folder owned by another user is not used (run as root: chowned to nobody)', async () => {
    const home = tempDir('cr-home-');
    const dir = join(home, '.cache', 'cr', 'v8');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    chownSync(dir, 65534, 65534);
    const r = await local(home);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(cacheLine(r.stderr)).toEqual({ state: 'off', where: `${dir} not used: owned by uid 65534` });
  });

  it.skipIf(process.getuid?.() !== 0)('a cache folder inside a folder another user owns or others can write is not used (they could swap it between check and write)', async () => {
    const home = tempDir('cr-home-');
    const xdg = join(home, 'shared');
    const parent = join(xdg, 'cr');
    mkdirSync(join(parent, 'v8'), { recursive: true, mode: 0o700 });
    chownSync(parent, 65534, 65534);
    const r = await local(home, { XDG_CACHE_HOME: xdg });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(cacheLine(r.stderr)).toEqual({ state: 'off', where: `${join(parent, 'v8')} not used: ${parent} is owned by uid 65534` });
    chownSync(parent, 0, 0);
    chmodSync(parent, 0o777);
    const open = await local(home, { XDG_CACHE_HOME: xdg });
    expect(cacheLine(open.stderr)).toEqual({ state: 'off', where: `${join(parent, 'v8')} not used: ${parent} is writable by others (mode 777)` });
    // A folder anyone can write but with the sticky bit (as /tmp) keeps others from renaming
    // what is not theirs: a cache folder of this user's own under it is used.
    chmodSync(parent, 0o1777);
    const sticky = await local(home, { XDG_CACHE_HOME: xdg });
    expect(cacheLine(sticky.stderr).state).toBe('missing');
    expect(readdirSync(join(parent, 'v8'))).toHaveLength(1);
  });

  it('a cache file others can write is not read, and the run replaces it with one of its own', async () => {
    const home = tempDir('cr-home-');
    const first = await local(home);
    const file = cacheLine(first.stderr).where;
    expect(existsSync(file)).toBe(true);
    // Planted: what V8 would accept (the real cache), but writable by anyone.
    chmodSync(file, 0o666);
    const planted = await local(home);
    expect(cacheLine(planted.stderr)).toEqual({ state: 'refused', where: `${file}: writable by others (mode 666)` });
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(cacheLine((await local(home)).stderr).state).toBe('accepted');
  });

  it('a cache damaged past its header (a disk fault) is rejected and made again: the run never crashes', async () => {
    const home = tempDir('cr-home-');
    const file = cacheLine((await local(home)).stderr).where;
    const bytes = readFileSync(file);
    // The header (V8's version, flags and source checks) stays intact; bytes deep in the
    // bytecode do not. Without a checksum V8 deserialises them and aborts the process.
    bytes.fill(0xff, 50_000, 50_064);
    writeFileSync(file, bytes);
    const damaged = await local(home);
    expect(damaged.exitCode, damaged.stderr).toBe(0);
    expect(cacheLine(damaged.stderr)).toEqual({ state: 'rejected', where: file });
    expect(JSON.parse(damaged.stdout)).toHaveProperty('summaries');
    expect(cacheLine((await local(home)).stderr).state).toBe('accepted');
  });

  it('a FIFO under the cache file name (or a symlink to one) is not opened for reading: the run neither hangs nor fails', async () => {
    const home = tempDir('cr-home-');
    const file = cacheLine((await local(home)).stderr).where;
    for (const plant of ['fifo', 'symlink']) {
      unlinkSync(file);
      const fifo = join(home, `${plant}.fifo`);
      runProcessSync('mkfifo', ['-m', '600', plant === 'fifo' ? file : fifo]);
      if (plant === 'symlink') symlinkSync(fifo, file);
      const r = await runBin(['finance', 'summary', '--local', '--json'], {
        env: env(home),
        nodeArgs: FLAGGED,
        configDir: join(home, 'config'),
        timeoutMs: 10_000,
      });
      expect(r.exitCode, `${plant}: ${r.stderr}`).toBe(0);
      expect(cacheLine(r.stderr), plant).toEqual({
        state: 'refused',
        where: `${file}: ${plant === 'fifo' ? 'not a regular file' : 'a symbolic link'}`,
      });
    }
  });

  it('caches of other builds of cr not made for a week are removed when a cache is made; recent ones stay', async () => {
    const home = tempDir('cr-home-');
    const dir = join(home, '.cache', 'cr', 'v8');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stale = join(dir, 'cli-0000000000000000-v20.0.0-x64-811c9dc5.cache');
    writeFileSync(stale, 'old', { mode: 0o600 });
    const monthAgo = Date.now() / 1000 - 30 * 86_400;
    utimesSync(stale, monthAgo, monthAgo);
    // Another build's cache made lately: that cr is still in use (a global install beside a
    // project's own), and removing it would make each of the two compile on every other run.
    const recent = 'cli-1111111111111111-v20.0.0-x64-811c9dc5.cache';
    writeFileSync(join(dir, recent), 'recent', { mode: 0o600 });
    writeFileSync(join(dir, 'notes.txt'), 'kept');
    await local(home);
    expect(readdirSync(dir).sort()).toEqual(
      [
        cacheLine((await local(home)).stderr)
          .where.split('/')
          .pop(),
        'notes.txt',
        recent,
      ].sort(),
    );
  });
});
