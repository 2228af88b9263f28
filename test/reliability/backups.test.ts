import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { Store, StoreError } from '../../src/server/store/store.js';
import { KEYS, fixtureStore, startFixtureServer } from '../server/helpers.js';
import { ensureBuilt, listenerRecord, rng, runBin, spawnServe } from './durability-helpers.js';
import { cleanupsAfterAll } from '../helpers/cleanups.js';
import { soak } from '../helpers/soak.js';
import { runCli } from '../helpers/run-cli.js';

/**
 * Backups and recovery (docs/reliability.md): every snapshot rewrite keeps the previous two
 * as <store>.bak.1 / .bak.2; a damaged store file (empty, NUL-filled, truncated at a random
 * offset, one flipped bit) is refused at start with exit 78 and a message naming the file,
 * the problem and the newest valid backup, and is left byte-identical; `cr local restore`
 * (in-process) brings the backup back and the server (in-process) serves it again.
 */
beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

const cleanups = cleanupsAfterAll();

/** A store with three folds behind it: store.json, .bak.1 and .bak.2 are sealed snapshots. */
async function storeWithHistory() {
  const s = await fixtureStore();
  cleanups.push(s.cleanup);
  const store = await Store.open(s.path);
  for (const id of ['one', 'two', 'three']) {
    await store.commit([{ op: 'insert', collection: 'content_listeners', record: listenerRecord(id) }]);
    await store.compact();
  }
  await store.close();
  return s;
}

const seed = Number(process.env.BACKUP_SEED ?? Date.now() % 1e9);
const random = rng(seed);
const figures: Record<string, unknown> = { seed };

describe('backups', () => {
  it('each snapshot rewrite keeps the two previous generations, newest first', async () => {
    const s = await storeWithHistory();
    const ids = async (p: string) =>
      JSON.parse(await readFile(p, 'utf8'))
        .content_listeners.map((l: { id: string }) => l.id)
        .filter((id: string) => !id.includes('-'));
    expect(await ids(s.path)).toEqual(['one', 'two', 'three']);
    expect(await ids(`${s.path}.bak.1`)).toEqual(['one', 'two']);
    expect(await ids(`${s.path}.bak.2`)).toEqual(['one']);
    expect(existsSync(`${s.path}.bak.3`)).toBe(false);
  });
});

const CORRUPTIONS: { name: string; damage: (b: Buffer) => Buffer; problem: RegExp }[] = [
  { name: 'empty', damage: () => Buffer.alloc(0), problem: /file is empty/ },
  { name: 'NUL-filled', damage: (b) => Buffer.alloc(b.length, 0), problem: /filled with NUL bytes/ },
  {
    name: 'truncated at a random offset',
    damage: (b) => b.subarray(0, 1 + Math.floor(random() * (b.length - 1))),
    problem: /truncated|checksum mismatch/,
  },
  {
    name: 'one flipped byte',
    damage: (b) => {
      const c = Buffer.from(b);
      const at = Math.floor(random() * c.length);
      c[at] = c[at]! ^ (1 << Math.floor(random() * 8));
      return c;
    },
    problem: /checksum|not valid JSON|NUL|damaged/,
  },
];

describe('a damaged store file is refused, then restored', () => {
  it.each(CORRUPTIONS)(
    '$name: cr serve exits 78 naming file, problem and backup; file untouched; cr local restore; the restored store serves',
    async ({ name, damage, problem }) => {
      const s = await storeWithHistory();
      const good = await readFile(s.path);
      const bak1 = await readFile(`${s.path}.bak.1`);
      const bad = damage(good);
      await writeFile(s.path, bad);

      const t = Date.now();
      const refused = await runBin(['serve', '--store', s.path, '--host', '127.0.0.1', '--port', '0'], { configDir: s.dir, timeoutMs: 10_000 });
      const ms = Date.now() - t;
      expect(refused.exitCode, refused.stderr).toBe(78);
      expect(refused.stderr).toContain(s.path);
      expect(refused.stderr).toMatch(problem);
      expect(refused.stderr).toContain(`newest valid backup: ${s.path}.bak.1`);
      expect(refused.stderr).toMatch(/restore with: cr local restore/);
      expect((await readFile(s.path)).equals(bad)).toBe(true);

      const restored = await runCli(['local', 'restore', '--store', s.path], { configDir: s.dir });
      expect(restored.exitCode, restored.stderr).toBe(0);
      expect(restored.stderr).toContain(`from ${s.path}.bak.1`);
      expect((await readFile(s.path)).equals(bak1)).toBe(true);
      const kept = (await readdir(s.dir)).filter((f) => f.startsWith('store.json.corrupt-'));
      expect(kept).toHaveLength(1);
      expect((await readFile(`${s.dir}/${kept[0]}`)).equals(bad)).toBe(true);

      // The restored store serves (in-process: the refusal above is what needs the process's exit code).
      const server = await startFixtureServer({ storePath: s.path });
      const res = await server.req('GET', '/api/v1/finance/summary', { key: KEYS.viewerW1 });
      expect(res.status).toBe(200);
      await server.stop();
      figures[name] = { bytes: bad.length, refusedInMs: ms };
    },
    30_000,
  );

  it(
    'many random truncations and bit flips: every one refused, file untouched (in-process)',
    async () => {
      const s = await storeWithHistory();
      const good = await readFile(s.path);
      let refused = 0;
      const N = soak(40, 300); // npm test / npm run test:soak
      for (let i = 0; i < N; i++) {
        const bad = i % 2 === 0 ? CORRUPTIONS[2]!.damage(good) : CORRUPTIONS[3]!.damage(good);
        await writeFile(s.path, bad);
        const err = await Store.open(s.path).catch((e: unknown) => e);
        expect(err, `case ${i}`).toBeInstanceOf(StoreError);
        expect((err as Error).message).toContain(`newest valid backup: ${s.path}.bak.1`);
        expect((await readFile(s.path)).equals(bad)).toBe(true);
        refused++;
      }
      figures.randomDamage = { cases: N, refused };
      // Bounded by its count, not by the clock: each case opens the store and reads its backups,
      // 40 of them well past the default 20 s on a loaded 2-core machine.
    },
    soak(120_000, 900_000),
  );

  it('the newest VALID backup is named: a damaged .bak.1 is skipped', async () => {
    const s = await storeWithHistory();
    await writeFile(s.path, '');
    await writeFile(`${s.path}.bak.1`, Buffer.alloc(100, 0));
    const err = await Store.open(s.path).catch((e: unknown) => e);
    expect((err as Error).message).toContain(`newest valid backup: ${s.path}.bak.2`);
    const restored = await runCli(['local', 'restore', '--store', s.path], { configDir: s.dir });
    expect(restored.exitCode, restored.stderr).toBe(0);
    expect(restored.stderr).toContain(`from ${s.path}.bak.2`);
  }, 20_000);

  it('restore --from validates the file; restore is refused while a server holds the store', async () => {
    const s = await storeWithHistory();
    const junk = `${s.dir}/junk.json`;
    await writeFile(junk, '{"version": 1, "users": [');
    const bad = await runCli(['local', 'restore', '--store', s.path, '--from', junk], { configDir: s.dir });
    expect(bad.exitCode).toBe(78);
    expect(bad.stderr).toContain(junk);
    expect(bad.stderr).toMatch(/not valid JSON/);

    const server = await spawnServe(['--store', s.path], { dir: s.dir });
    const held = await runCli(['local', 'restore', '--store', s.path], { configDir: s.dir });
    expect(held.exitCode).toBe(1);
    expect(held.stderr).toMatch(/in use by another cr server \(pid \d+/);
    await server.stop();

    const ok = await runCli(['local', 'restore', '--store', s.path, '--from', `${s.path}.bak.2`], { configDir: s.dir });
    expect(ok.exitCode, ok.stderr).toBe(0);
    expect((await readFile(s.path)).equals(await readFile(`${s.path}.bak.2`))).toBe(true);
    console.log(`backups test: ${JSON.stringify(figures)}`);
  }, 30_000);
});
