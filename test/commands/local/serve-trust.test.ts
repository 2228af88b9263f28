import { afterAll, describe, expect, it } from 'vitest';
import { chmodSync, chownSync, existsSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { announceServe, readServeAd, serveAdPathOf } from '../../../src/local/serve-ad.js';
import { startServer } from '../../../src/server/serve.js';

// The JSON store file only, not the `commands-pg` pass (vitest.config.ts): the advertisement beside a store file and the store folder's permissions; a database has neither.

/**
 * `--local` sends its admin key only to its own server (docs/cli-contract.md §7.4): the
 * advertisement beside the store (`<store>.serve.json`) is trusted only when it is this
 * user's, not writable by others, and points at a loopback address; a store folder others
 * can write is refused before anything is read or written there.
 */
afterAll(() => cleanupTempDirs());

const isRoot = process.getuid?.() === 0;

function advertised(o: { url?: string; mode?: number; uid?: number } = {}) {
  const store = join(tempDir('cr-ad-'), 'store.json');
  const ad = { pid: 4242, url: o.url ?? 'http://127.0.0.1:4999/api/v1', port: 4999 };
  writeFileSync(serveAdPathOf(store), JSON.stringify(ad) + '\n', { mode: 0o644 });
  if (o.mode !== undefined) chmodSync(serveAdPathOf(store), o.mode);
  if (o.uid !== undefined) chownSync(serveAdPathOf(store), o.uid, o.uid);
  return store;
}

describe('the advertisement of a server beside the store', () => {
  it('is used when it is this user’s, writable only by them, and on loopback', () => {
    expect(readServeAd(advertised(), 4242)).toEqual({ pid: 4242, url: 'http://127.0.0.1:4999/api/v1', port: 4999 });
    expect(readServeAd(advertised({ url: 'http://[::1]:4999/api/v1' }), 4242)?.port).toBe(4999);
  });

  it.each([
    ['group-writable', { mode: 0o664 }],
    ['world-writable', { mode: 0o646 }],
    ['pointing off this machine', { url: 'http://203.0.113.7:4999/api/v1' }],
    ['pointing at a name that may resolve anywhere', { url: 'http://attacker.example:4999/api/v1' }],
  ])('is ignored when %s', (_what, o) => {
    expect(readServeAd(advertised(o), 4242)).toBeUndefined();
  });

  it.skipIf(!isRoot)('is ignored when another user owns it (planted)', () => {
    expect(readServeAd(advertised({ uid: 65534 }), 4242)).toBeUndefined();
  });
});

describe('a store folder other users can write', () => {
  it('is refused by --local before anything is made there, naming the fix (exit 1, STORE_DIR_UNSAFE)', async () => {
    const home = tempDir('cr-unsafe-home-');
    const folder = join(home, 'shared');
    mkdirSync(folder);
    chmodSync(folder, 0o777);
    const store = join(folder, 'store.json');
    const r = await runCli(['brand', 'subjects', '--local', '--json'], { configDir: home, env: { HOME: home, CR_STORE: store } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`Refusing the store folder ${folder}: other users can write to it (mode 777)`);
    expect(r.stderr).toContain(`chmod go-w ${folder}`);
    expect(r.stderr).toContain('STORE_DIR_UNSAFE');
    expect(existsSync(store)).toBe(false);
  });

  it('with the folder fixed, --local works', async () => {
    const home = tempDir('cr-unsafe-home-');
    const folder = join(home, 'shared');
    mkdirSync(folder, { mode: 0o755 });
    chmodSync(folder, 0o755);
    const r = await runCli(['brand', 'subjects', '--local', '--json'], { configDir: home, env: { HOME: home, CR_STORE: join(folder, 'store.json') } });
    expect(r.exitCode, r.stderr).toBe(0);
  });
});

describe('a store reached through a symlink', () => {
  it('is refused by --local when the folder of its target is writable by others (STORE_DIR_UNSAFE)', async () => {
    const home = tempDir('cr-unsafe-link-');
    const shared = join(home, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const mine = join(home, 'mine');
    mkdirSync(mine, { mode: 0o755 });
    symlinkSync(join(shared, 'store.json'), join(mine, 'store.json'));
    const r = await runCli(['brand', 'subjects', '--local', '--json'], { configDir: home, env: { HOME: home, CR_STORE: join(mine, 'store.json') } });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toContain(`Refusing the store folder ${shared}: other users can write to it`);
    expect(existsSync(join(shared, 'store.json'))).toBe(false);
  });

  it('served by cr serve over the same target: --local sends to that server (its advertisement sits beside the target)', async () => {
    const home = tempDir('cr-link-serve-');
    const real = join(home, 'real');
    const links = join(home, 'links');
    mkdirSync(real, { mode: 0o755 });
    mkdirSync(links, { mode: 0o755 });
    const link = join(links, 'store.json');
    symlinkSync(join(real, 'store.json'), link);
    const env = { HOME: home, CR_STORE: link };
    const first = await runCli(['brand', 'subjects', '--local', '--json'], { configDir: home, env });
    expect(first.exitCode, first.stderr).toBe(0);
    const server = await startServer({ storePath: link, host: '127.0.0.1', port: 0, log: false, lockLabel: 'cr serve' });
    const unannounce = announceServe(server.storePath, `${server.url}/api/v1`, server.port);
    try {
      const r = await runCli(['brand', 'subjects', '--local', '--json'], { configDir: home, env });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain(`sending to cr serve on port ${server.port}`);
    } finally {
      unannounce();
      await server.close();
    }
  });
});
