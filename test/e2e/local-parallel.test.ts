import { afterAll, describe, expect, it } from 'vitest';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { runBin, spawnBin } from '../helpers/cli.js';
import { runProcessSync } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';

/**
 * Several local commands at once on one store (docs/cli-contract.md "Local mode in CI"): real processes,
 * because the store's lock is held per process. Eight `--local` runs on a fresh machine,
 * eight beside a `cr serve` of the same store, eight `cr local keys create`; and a read-only
 * folder, which only a real process in its own mount namespace can be given.
 */
afterAll(() => cleanupTempDirs());
const cleanups = cleanupsAfterAll();

const PARALLEL = 8;
const storeOf = (home: string) => join(home, '.local', 'share', 'cr', 'store.json');
const env = (home: string) => ({ HOME: home, CR_CONFIG_DIR: home });

async function keysListed(home: string, store?: string): Promise<{ id: string; name: string }[]> {
  const r = await runBin(['local', 'keys', 'list', '--json', ...(store ? ['--store', store] : [])], { env: env(home), configDir: home });
  expect(r.stderr).toBe('');
  return JSON.parse(r.stdout) as { id: string; name: string }[];
}

const all = (n: number, run: () => ReturnType<typeof runBin>) => Promise.all(Array.from({ length: n }, run));

describe('parallel local commands on one store', () => {
  it(`${PARALLEL} --local commands at once on a fresh machine all succeed, with one store and one key`, { timeout: 60_000 }, async () => {
    const home = tempDir('cr-par-');
    const runs = await all(PARALLEL, () => runBin(['--local', 'brand', 'subjects', '--json'], { env: env(home), configDir: home, timeoutMs: 45_000 }));
    for (const r of runs) expect({ exit: r.exitCode, stderr: r.stderr }).toMatchObject({ exit: 0 });
    expect(new Set(runs.map((r) => r.stdout)).size).toBe(1);
    expect(runs.filter((r) => r.stderr.includes('created the local store'))).toHaveLength(1);
    expect(runs.filter((r) => r.stderr.includes('made an admin key'))).toHaveLength(1);
    expect(statSync(`${storeOf(home)}.local-key`).mode & 0o777).toBe(0o600);
    const keys = await keysListed(home);
    expect(keys.map((k) => k.name)).toEqual(['cr --local']);

    // Another round makes no new key.
    const again = await runBin(['--local', 'brand', 'subjects', '--json'], { env: env(home), configDir: home });
    expect(again.exitCode).toBe(0);
    expect(again.stderr).not.toContain('made an admin key');
    expect((await keysListed(home)).map((k) => k.id)).toEqual(keys.map((k) => k.id));
  });

  it(`${PARALLEL} --local commands at once beside a cr serve of the same store go to that server`, { timeout: 60_000 }, async () => {
    const home = tempDir('cr-par-serve-');
    const first = await runBin(['--local', 'brand', 'subjects', '--json'], { env: env(home), configDir: home });
    expect(first.exitCode).toBe(0);
    const urlFile = join(home, 'url.txt');
    const server = spawnBin(['serve', '--port', '0', '--url-file', urlFile], { env: env(home), configDir: home, timeoutMs: 60_000 });
    cleanups.push(async () => {
      server.kill('SIGTERM');
      await server;
    });
    const wait = await runBin(['local', 'wait', '--url-file', urlFile, '--pid', String(server.pid)], { env: env(home), configDir: home });
    expect(wait.exitCode).toBe(0);
    const port = new URL(wait.stdout.trim()).port;

    const runs = await all(PARALLEL, () => runBin(['--local', 'brand', 'subjects', '--json'], { env: env(home), configDir: home, timeoutMs: 45_000 }));
    for (const r of runs) {
      expect({ exit: r.exitCode, stderr: r.stderr }).toMatchObject({ exit: 0 });
      expect(r.stderr).toContain(`sending to cr serve on port ${port} (pid ${server.pid})`);
      expect(r.stdout).toBe(first.stdout);
    }
    // Local administration goes through that server (src/local/administer.ts): its answer names the unknown website.
    const create = await runBin(['local', 'keys', 'create', '--role', 'viewer', '--website', '00000000-0000-4000-8000-000000000000'], { env: env(home), configDir: home });
    expect(create.exitCode).toBe(2);
    expect(create.stderr).toContain('Unknown website 00000000-0000-4000-8000-000000000000');
    // Listing reads without the lock.
    expect((await keysListed(home)).map((k) => k.name)).toEqual(['cr --local']);

    server.kill('SIGTERM');
    const stopped = await server;
    expect(stopped.exitCode).toBe(0);
    expect(stopped.stderr.match(/GET \/api\/v1\/brand\/brand-subjects 200/g)).toHaveLength(PARALLEL);
    expect(stopped.stderr).toMatch(/POST \/_local\/keys 400/);
  });

  it(`${PARALLEL} cr local keys create at once on one store all succeed`, { timeout: 60_000 }, async () => {
    const home = tempDir('cr-par-keys-');
    const store = join(home, 'ci-store.json');
    const init = await runBin(['local', 'init', '--store', store, '--demo', '--json'], { env: env(home), configDir: home });
    expect(init.exitCode).toBe(0);
    const websiteId = (JSON.parse(init.stdout) as { websiteId: string }).websiteId;
    const runs = await all(PARALLEL, () => runBin(['local', 'keys', 'create', '--role', 'viewer', '--website', websiteId, '--store', store], { env: env(home), configDir: home, timeoutMs: 45_000 }));
    for (const r of runs) expect({ exit: r.exitCode, stderr: r.stderr }).toMatchObject({ exit: 0 });
    expect(new Set(runs.map((r) => r.stdout.trim())).size).toBe(PARALLEL);
    expect(await keysListed(home, store)).toHaveLength(PARALLEL + 1);
  });
});

// A read-only folder, without changing this machine's mounts: a private mount namespace
// (unshare -rm) where the folder is bind-mounted read-only, for the one command inside.
const READ_ONLY = ['sh', '-c', 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1" && shift && exec "$@"', 'sh'];
const canUnshare = runProcessSync('unshare', ['-rm', ...READ_ONLY, '/tmp', 'true']).exitCode === 0;

describe('a store in a read-only folder', () => {
  it.skipIf(!canUnshare)('cr local keys list reads it; a write says the folder is read-only', async () => {
    const home = tempDir('cr-ro-');
    const dir = join(home, 'store');
    const store = join(dir, 'store.json');
    expect((await runBin(['local', 'init', '--store', store, '--demo'], { env: env(home), configDir: home })).exitCode).toBe(0);
    const inReadOnly = (args: string[]) => runBin(args, { env: env(home), configDir: home, via: ['unshare', '-rm', ...READ_ONLY, dir], timeoutMs: 15_000 });
    const list = await inReadOnly(['local', 'keys', 'list', '--store', store, '--json']);
    expect(list.stderr).toBe('');
    expect(list.exitCode).toBe(0);
    expect((JSON.parse(list.stdout) as { name: string }[]).map((k) => k.name)).toEqual(['local admin']);

    const create = await inReadOnly(['local', 'keys', 'create', '--role', 'viewer', '--website', '0b253a23-6fd1-4921-86e4-4954cb8dbbba', '--store', store]);
    expect(create.exitCode).toBe(1);
    expect(create.stderr).toContain(`cannot write in ${dir}: the folder is on a read-only file system (EROFS)`);
    expect(create.stderr).not.toContain('INTERNAL');
  });
});
