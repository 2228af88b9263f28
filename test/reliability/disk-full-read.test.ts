import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crOnPath, ensureBuilt } from '../helpers/cli.js';
import { runProcessSync, spawnProcess } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

/**
 * A `--local` read on a full disk (docs/reliability.md "Disk full and write errors"): it cannot
 * take the store's lock (a file beside the store), and says so with its own code, naming the
 * store, rather than `ENOSPC … (INTERNAL)` naming nothing.
 *
 * The real thing: a 2 MB tmpfs, filled up. It is mounted inside a mount namespace of the
 * test's own (`unshare -m`), so it is gone when the script ends, however it ends, and no
 * other process sees it. Needs root (or user namespaces); skipped where unshare -m fails.
 */
afterAll(() => cleanupTempDirs());

const canMount = runProcessSync('unshare', ['-m', 'sh', '-c', 'mount -t tmpfs -o size=64k tmpfs /mnt']).exitCode === 0;

describe.runIf(canMount)('a --local read on a full disk', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('fails with STORE_DISK_FULL naming the store (exit 1); after space is freed the same read works', { timeout: 60_000 }, async () => {
    const dir = tempDir('cr-disk-full-');
    const mnt = join(dir, 'mnt');
    const store = join(mnt, 'store.json');
    const script = [
      'set -u',
      `mkdir -p ${mnt}`,
      `mount -t tmpfs -o size=2m,mode=0700 tmpfs ${mnt}`,
      'cr local init --demo --store "$CR_STORE" > /dev/null',
      'cr --local finance summary --json > /dev/null || exit 90',
      `dd if=/dev/zero of=${mnt}/fill bs=4k 2> /dev/null`,
      'cr --local finance summary --json > full.out 2> full.err; echo "$?" > full.code',
      `rm ${mnt}/fill`,
      'cr --local finance summary --json > freed.out 2> freed.err; echo "$?" > freed.code',
      'cat full.err full.code freed.code',
    ].join('\n');
    writeFileSync(join(dir, 'full.sh'), script);
    const env = { PATH: crOnPath(), HOME: dir, CR_CONFIG_DIR: dir, NO_COLOR: '1', CR_STORE: store };
    const r = await spawnProcess('unshare', ['-m', 'bash', 'full.sh'], { cwd: dir, env, timeoutMs: 50_000 });
    expect(r.exitCode, r.stderr).toBe(0);
    const [err, fullCode, freedCode] = r.stdout.trim().split('\n');
    expect(JSON.parse(err!)).toMatchObject({ code: 'STORE_DISK_FULL' });
    expect(JSON.parse(err!).error).toContain(`cannot write beside the store ${store}: no space left on the device (ENOSPC)`);
    expect(fullCode).toBe('1');
    expect(freedCode).toBe('0');
  });
});
