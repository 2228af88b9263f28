import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { runBin, ensureBuilt } from '../../helpers/cli.js';
import { runOnPty } from '../../helpers/pty.js';
import { spawnServe, stopServe } from '../../helpers/serve.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { onPostgres, storeFrom } from '../../helpers/store-under-test.js';
import { FIXTURE, IDS, KEYS } from '../../server/helpers.js';
import { openStore } from '../../../src/server/store/open-store.js';
import { resetStore } from '../../../src/server/ops/admin/reset.js';

/**
 * `cr local reset` (docs/local-server.md "Resetting a store"): one website's records, or all
 * data but the keys, on the store file or PostgreSQL, offline or through the `cr serve` that
 * holds the store; refused without --yes off a terminal, and for an unknown website.
 */
afterAll(() => cleanupTempDirs());

/** A fresh copy of the fixture store (a file, or a database in the PostgreSQL pass). */
async function fixtureCopy(): Promise<{ dir: string; store: string }> {
  const dir = tempDir('cr-reset-');
  const file = join(dir, 'store.json');
  copyFileSync(FIXTURE, file);
  return { dir, store: await storeFrom(file) };
}

type Doc = Record<string, { id: string; websiteId?: string; website_id?: string | null }[]>;

async function exported(store: string): Promise<Doc> {
  const r = await runCli(['local', 'export', '--store', store]);
  expect(r.exitCode, r.stderr).toBe(0);
  return JSON.parse(r.stdout) as Doc;
}

const scopeOf = (r: { websiteId?: string; website_id?: string | null }) => r.websiteId ?? r.website_id;

describe('cr local reset', () => {
  it("--website ID --yes --json: that website's records go, with counts; other websites and every key stay", async () => {
    const { store } = await fixtureCopy();
    const before = await exported(store);
    const r = await runCli(['local', 'reset', '--website', IDS.W1, '--yes', '--json', '--store', store]);
    expect(r.exitCode, r.stderr).toBe(0);
    const counts = JSON.parse(r.stdout) as { removed: Record<string, number>; rate_windows: number };
    expect(counts.removed.social_posts).toBe(before.social_posts!.filter((p) => p.websiteId === IDS.W1).length);
    expect(counts.rate_windows).toBe(before.api_keys!.filter((k) => k.website_id === IDS.W1).length);
    expect(r.stderr).toMatch(/Reset .*: removed .*social_posts \d+/);
    const after = await exported(store);
    for (const c of ['social_posts', 'learnings', 'nurture_sequences', 'crm_agents', 'brand_subjects']) {
      expect(
        after[c]!.some((x) => scopeOf(x) === IDS.W1),
        c,
      ).toBe(false);
      expect(after[c]!.length, c).toBe(before[c]!.filter((x) => scopeOf(x) !== IDS.W1).length);
    }
    expect(after.api_keys).toEqual(before.api_keys);
    expect(after.websites).toEqual(before.websites);
  });

  it('--all-data --yes: only the keys stay, with the users, agencies and websites they are scoped to', async () => {
    const { store } = await fixtureCopy();
    const before = await exported(store);
    const r = await runCli(['local', 'reset', '--all-data', '--yes', '--json', '--store', store]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout).rate_windows).toBe('all');
    const after = await exported(store);
    expect(after.api_keys).toEqual(before.api_keys);
    expect(after.social_posts ?? []).toEqual([]);
    expect(after.business_entities ?? []).toEqual([]);
    const keyed = new Set(before.api_keys!.map((k) => scopeOf(k)).filter(Boolean));
    expect(new Set(after.websites!.map((w) => w.id))).toEqual(keyed);
  });

  it('without --yes off a terminal: refused (exit 2) naming --yes; nothing removed', async () => {
    const { store } = await fixtureCopy();
    const before = await exported(store);
    const r = await runCli(['local', 'reset', '--website', IDS.W1, '--store', store]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/pass --yes/);
    expect(await exported(store)).toEqual(before);
  });

  it('an unknown website: exit 2 naming it, nothing removed; neither or both of --website and --all-data: exit 2', async () => {
    const { store } = await fixtureCopy();
    const before = await exported(store);
    const r = await runCli(['local', 'reset', '--website', 'no-such-site', '--yes', '--store', store]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/No website with id no-such-site .*nothing was removed/);
    expect((await runCli(['local', 'reset', '--yes', '--store', store])).exitCode).toBe(2);
    expect((await runCli(['local', 'reset', '--all-data', '--website', IDS.W1, '--yes', '--store', store])).exitCode).toBe(2);
    expect(await exported(store)).toEqual(before);
  });
});

// The file pass: a `cr serve` holding a store file is what sends the command online.
describe.skipIf(onPostgres())('cr local reset while cr serve holds the store', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it("goes through the server: the website's records and its keys' rate windows go, the other website's stay", async () => {
    const dir = tempDir('cr-reset-serve-');
    const server = await spawnServe(['--rate-limit', '5'], { dir, fixture: true });
    const store = join(dir, 'store.json');
    try {
      const get = () => fetch(`${server.baseUrl}/intelligence/learnings`, { headers: { authorization: `Bearer ${KEYS.editorW1}` } });
      for (let i = 0; i < 3; i++) expect((await get()).status).toBe(200);
      expect((await get()).headers.get('x-ratelimit-remaining')).toBe('1');
      const r = await runBin(['local', 'reset', '--website', IDS.W1, '--yes', '--json', '--store', store], { configDir: dir, timeoutMs: 20_000 });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).removed.learnings).toBeGreaterThan(0);
      const res = await get();
      expect(res.headers.get('x-ratelimit-remaining')).toBe('4'); // a new window
      expect(((await res.json()) as { data: { learnings: unknown[] } }).data.learnings).toEqual([]);
      const left = await runBin(['local', 'export', '--store', store], { configDir: dir, timeoutMs: 20_000 });
      const doc = JSON.parse(left.stdout) as Doc;
      expect(doc.learnings!.map((l) => l.websiteId)).toEqual([IDS.W2]);
    } finally {
      await stopServe(server);
    }
  }, 60_000);
});

describe.skipIf(onPostgres())('a reset of a store at its size cap', () => {
  it('is accepted (removing makes room) where an insert is refused as STORE_FULL', async () => {
    const dir = tempDir('cr-reset-cap-');
    const path = join(dir, 'store.json');
    copyFileSync(FIXTURE, path);
    const store = await openStore(path, { file: { maxStoreBytes: statSync(path).size + 100 } });
    try {
      const big = { id: 'u-big', email: 'big@example.com', name: 'x'.repeat(4_000) };
      await expect(store.commit([{ op: 'insert', collection: 'users', record: big }])).rejects.toMatchObject({ name: 'StoreFullError' });
      const counts = await resetStore(store, { websiteId: IDS.W1 });
      expect(counts.removed.social_posts).toBeGreaterThan(0);
      expect((await store.snapshot()).social_posts.some((p) => p.websiteId === IDS.W1)).toBe(false);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(onPostgres())('cr local reset at a terminal', () => {
  beforeAll(() => ensureBuilt(), 120_000);

  it('asks first: an answer other than yes removes nothing (exit 1); yes goes on', { timeout: 60_000 }, async () => {
    const { dir, store } = await fixtureCopy();
    const before = await exported(store);
    const env = { HOME: dir, CR_CONFIG_DIR: dir, NO_COLOR: '1' };
    const ask = async (answer: string) => {
      const run = runOnPty(['local', 'reset', '--website', IDS.W1, '--store', store], env);
      await run.waitFor('Type yes to go on');
      run.type(`${answer}\r`);
      return { ...(await run.done), screen: run.screen() };
    };
    const no = await ask('no');
    expect(no.exitCode, no.screen).toBe(1);
    expect(no.screen).toContain('Not confirmed; nothing was removed');
    expect(await exported(store)).toEqual(before);
    const yes = await ask('yes');
    expect(yes.exitCode, yes.screen).toBe(0);
    expect((await exported(store)).social_posts!.some((p) => p.websiteId === IDS.W1)).toBe(false);
  });
});
