import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crOnPath, ensureBuilt } from '../helpers/cli.js';
import { runProcessSync, spawnProcess } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

/**
 * A `--local` read on a full disk (docs/reliability.md "Disk full and write errors"): it cannot
 * take the store's lock (a file beside the store), and says so with its own code, naming the
 * store, rather than `ENOSPC … (INTERNAL)` naming nothing. And the output of `cr local` and
 * `--local` commands redirected to a full disk: one line and exit 1 when standard output cannot
 * be written, never a stack; diagnostics lost when standard error cannot be, the command's own
 * exit code kept.
 *
 * The real thing: a 2 MB tmpfs, filled up. It is mounted inside a mount namespace of the
 * test's own (`unshare -m`), so it is gone when the script ends, however it ends, and no
 * other process sees it. Needs root (or user namespaces); skipped where unshare -m fails.
 */
afterAll(() => cleanupTempDirs());

const canMount = runProcessSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /mnt']).exitCode === 0;

/**
 * Runs `lines` in a bash of their own mount namespace, after a tmpfs of `size` is mounted on
 * `mnt` (inside `dir`), with `cr` on the PATH and the store at `store`; in `dir`.
 */
async function onTmpfs(dir: string, mnt: string, size: string, store: string, lines: string[]) {
  writeFileSync(join(dir, 'run.sh'), ['set -u', `mkdir -p ${mnt}`, `mount -t tmpfs -o size=${size},mode=0700 tmpfs ${mnt}`, ...lines].join('\n'));
  const env = { PATH: crOnPath(), HOME: dir, CR_CONFIG_DIR: dir, NO_COLOR: '1', CR_STORE: store };
  const r = await spawnProcess('unshare', ['-m', 'bash', 'run.sh'], { cwd: dir, env, timeoutMs: 50_000 });
  expect(r.exitCode, r.stderr).toBe(0);
  return r;
}

describe.runIf(canMount)('a --local read on a full disk', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('fails with STORE_DISK_FULL naming the store (exit 1); after space is freed the same read works', { timeout: 60_000 }, async () => {
    const dir = tempDir('cr-disk-full-');
    const mnt = join(dir, 'mnt');
    const store = join(mnt, 'store.json');
    const r = await onTmpfs(dir, mnt, '2m', store, [
      'cr local init --demo --store "$CR_STORE" > /dev/null',
      'cr --local finance summary --json > /dev/null || exit 90',
      `dd if=/dev/zero of=${mnt}/fill bs=4k 2> /dev/null`,
      'cr --local finance summary --json > full.out 2> full.err; echo "$?" > full.code',
      `rm ${mnt}/fill`,
      'cr --local finance summary --json > freed.out 2> freed.err; echo "$?" > freed.code',
      'cat full.err full.code freed.code',
    ]);
    const [err, fullCode, freedCode] = r.stdout.trim().split('\n');
    expect(JSON.parse(err!)).toMatchObject({ code: 'STORE_DISK_FULL' });
    expect(JSON.parse(err!).error).toContain(`cannot write beside the store ${store}: no space left on the device (ENOSPC)`);
    expect(fullCode).toBe('1');
    expect(freedCode).toBe('0');
  });

  it('cr local init, restore and serve on a full disk name the store in STORE_DISK_FULL', { timeout: 60_000 }, async () => {
    const dir = tempDir('cr-disk-full-names-');
    const mnt = join(dir, 'mnt');
    const store = join(mnt, 'store.json');
    const fresh = join(mnt, 'fresh.json');
    await onTmpfs(dir, mnt, '2m', store, [
      'cr local init --demo --store "$CR_STORE" > /dev/null 2>&1 || exit 90',
      `dd if=/dev/zero of=${mnt}/fill bs=4k 2> /dev/null`,
      `cr local init --json --profile fresh --store ${fresh} > /dev/null 2> init.err; echo "$?" > init.code`,
      'cr local restore --json --store "$CR_STORE" > /dev/null 2> restore.err; echo "$?" > restore.code',
      'cr serve --json --port 0 --store "$CR_STORE" > /dev/null 2> serve.err; echo "$?" > serve.code',
    ]);
    for (const [name, path] of [
      ['init', fresh],
      ['restore', store],
      ['serve', store],
    ] as const) {
      const err = readFileSync(join(dir, `${name}.err`), 'utf8')
        .trim()
        .split('\n')
        .pop()!;
      const code = readFileSync(join(dir, `${name}.code`), 'utf8').trim();
      expect({ name, code, err: JSON.parse(err) }).toMatchObject({ name, code: '1', err: { code: 'STORE_DISK_FULL', error: expect.stringContaining(`the store ${path}:`) } });
    }
  });

  it('output larger than the room left on the disk: exit 1 and one line, not a cut file and exit 0', { timeout: 60_000 }, async () => {
    const dir = tempDir('cr-disk-short-');
    const mnt = join(dir, 'mnt');
    // The store is off the small disk; its export (~180 KB) is bigger than the whole of it.
    const store = join(dir, 'store.json');
    await onTmpfs(dir, mnt, '64k', store, [
      'cr local init --demo --store "$CR_STORE" > /dev/null 2>&1 || exit 90',
      `cr local export --store "$CR_STORE" > ${mnt}/export.json 2> export.err; echo "$?" > export.code`,
      `cr local export --store "$CR_STORE" > whole.json`,
    ]);
    expect(readFileSync(join(dir, 'export.code'), 'utf8').trim()).toBe('1');
    expect(readFileSync(join(dir, 'export.err'), 'utf8').trim().split('\n').pop()).toBe('cr: cannot write to standard output (ENOSPC)');
    expect(readFileSync(join(dir, 'whole.json')).length).toBeGreaterThan(64 * 1024);
  });

  it('output redirected to a full disk: exit 1 and one line, never a stack; standard error there only loses the notices', { timeout: 60_000 }, async () => {
    const dir = tempDir('cr-disk-full-out-');
    const mnt = join(dir, 'mnt');
    // The store is off the full disk: only what the commands print goes there.
    const store = join(dir, 'store.json');
    const runs = {
      export: `cr local export --store "$CR_STORE" > ${mnt}/export.json`,
      keys: `cr local keys list --store "$CR_STORE" > ${mnt}/keys.txt`,
      summary: `cr --local finance summary --json > ${mnt}/summary.json`,
      table: `cr --local finance summary > ${mnt}/summary.txt`,
    };
    await onTmpfs(dir, mnt, '1m', store, [
      'cr local init --demo --store "$CR_STORE" > /dev/null 2>&1 || exit 90',
      `dd if=/dev/zero of=${mnt}/fill bs=4k 2> /dev/null`,
      ...Object.entries(runs).map(([name, line]) => `${line} 2> ${name}.err; echo "$?" > ${name}.code`),
      `cr --local finance summary --json > notices.out 2> ${mnt}/notices.err; echo "$?" > notices.code`,
    ]);
    for (const name of Object.keys(runs)) {
      const err = readFileSync(join(dir, `${name}.err`), 'utf8');
      expect({ name, code: readFileSync(join(dir, `${name}.code`), 'utf8').trim(), stack: /^\s+at /m.test(err) }).toEqual({ name, code: '1', stack: false });
      expect(err.split('\n').filter(Boolean).at(-1)).toBe('cr: cannot write to standard output (ENOSPC)');
    }
    expect(readFileSync(join(dir, 'notices.code'), 'utf8').trim()).toBe('0');
    expect(JSON.parse(readFileSync(join(dir, 'notices.out'), 'utf8'))).toHaveProperty('summaries');
  });
});
