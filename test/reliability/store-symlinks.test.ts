import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { copyFileSync, lstatSync, mkdirSync, readdirSync, readlinkSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { Store } from '../../src/server/store/store.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { FIXTURE, KEYS, V, ensureBuilt, listenerBody, request, spawnServe, stopServe } from './support.js';
import type { SpawnedServe } from './support.js';

/**
 * A store reached through a symlink (docs/api-decisions.md §9): the path is resolved (realpath) before
 * locking and writing. Two paths to one file are one store; the symlink stays a symlink and
 * its target is what gets written; lock, journal, backups and temp files sit beside the
 * target. It used to be two stores: both servers started (lock and journal named after the
 * path as given), each kept only its own writes, the link became a plain file, and
 * `link.json.bak.1` was a symlink rather than a snapshot.
 */
const running: SpawnedServe[] = [];
afterAll(async () => {
  for (const s of running) s.kill('SIGKILL');
  cleanupTempDirs();
});

function layout() {
  const dir = tempDir('cr-symlink-');
  const real = join(dir, 'real.json');
  const link = join(dir, 'link.json');
  copyFileSync(FIXTURE, real);
  symlinkSync('real.json', link);
  return { dir, real, link };
}

async function write(s: SpawnedServe, name: string): Promise<string> {
  const res = await request(s.origin, 'POST', `${V}/content/listeners`, { key: KEYS.editorW1, body: { ...listenerBody, name } });
  expect(res.status, res.text).toBe(200);
  return res.json.data.id as string;
}

describe('a store reached through a symlink', () => {
  beforeAll(async () => {
    await ensureBuilt();
  }, 120_000);

  it('two paths to one file are one store: the second server is refused, whichever path each uses', async () => {
    const { dir, real, link } = layout();
    mkdirSync(join(dir, 'sub'));
    symlinkSync(dir, join(dir, 'folder-link')); // a symlinked folder, and `..`, are other ways in
    const first = await spawnServe(['--store', link], { dir });
    running.push(first);
    await vi.waitFor(() => expect(first.stderr()).toContain(`over ${real} `), { timeout: 5_000 }); // says which file it writes
    for (const other of [real, link, join(dir, 'folder-link', 'real.json'), join(dir, 'sub', '..', 'link.json')]) {
      const refused = await spawnServe(['--store', other], { dir }).then(
        (s) => (running.push(s), undefined),
        (err: Error) => err,
      );
      expect(refused, `${other} started a second server`).toBeInstanceOf(Error);
      expect(refused!.message).toContain(`${real} is in use by another cr server (pid ${first.child.pid}`);
    }
    expect((await stopServe(first)).code).toBe(0);
  }, 60_000);

  it('writes through the link land in the target; after a fold the link is still a symlink and backups are files beside the target', async () => {
    const { dir, real, link } = layout();
    const s = await spawnServe(['--store', link], { dir });
    running.push(s);
    const names = readdirSync(dir);
    expect(names).toContain('real.json.lock');
    expect(names.filter((n) => n.startsWith('link.json.'))).toEqual([]);
    const ids = [await write(s, 'through the link 1'), await write(s, 'through the link 2')];
    expect((await stopServe(s)).code).toBe(0); // a clean stop folds the journal into the snapshot

    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readlinkSync(link)).toBe('real.json');
    const after = readdirSync(dir).sort();
    expect(after.filter((n) => n.startsWith('link.json'))).toEqual(['link.json']); // no sidecar named after the link
    expect(after).toContain('real.json.bak.1');
    for (const n of after.filter((n) => n.startsWith('real.json.bak.'))) expect(lstatSync(join(dir, n)).isFile(), n).toBe(true);
    const st = await Store.open(real);
    try {
      const stored = new Set(st.list('content_listeners').map((l) => l.id));
      for (const id of ids) expect(stored.has(id), id).toBe(true);
    } finally {
      await st.close();
    }
  }, 60_000);

  it('a symlink to a store not made yet: the store is created at the target and the link stays', async () => {
    const dir = tempDir('cr-symlink-new-');
    const link = join(dir, 'link.json');
    symlinkSync(join('data', 'store.json'), link); // dangling: neither data/ nor the file exist
    const store = await Store.open(link);
    expect(store.path).toBe(join(dir, 'data', 'store.json'));
    await store.close();
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(dir, 'data', 'store.json')).isFile()).toBe(true);
  });
});
