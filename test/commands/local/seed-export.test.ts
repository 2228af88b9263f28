import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from '../../contract/ajv.js';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { newStore, onPostgres } from '../../helpers/store-under-test.js';

afterAll(() => cleanupTempDirs());

const USER = { id: 'u-1', email: 'ci@example.com', name: 'CI' };
const SITE = { id: '0c000000-0000-4000-8000-000000000001', name: 'Site', domain: 'site.example', agency_id: null, owner_id: 'u-1', location: null };
const post = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  websiteId: '0c000000-0000-4000-8000-000000000001',
  status: 'draft',
  content: `post ${id}`,
  scheduledAt: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...extra,
});

function write(dir: string, name: string, doc: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof doc === 'string' ? doc : JSON.stringify(doc, null, 2));
  return path;
}

describe('cr local seed', () => {
  // Whether a store file was made is a question about the file: the JSON pass only.
  it.skipIf(onPostgres())('reports every problem at once as FILE: $.path: message, exits 2 and writes nothing (no store made)', async () => {
    const dir = tempDir('cr-seed-');
    const store = join(dir, 'store.json');
    const file = write(dir, 'fx.json', {
      version: 1,
      users: [USER],
      websites: [SITE],
      social_posts: [
        post('0d000000-0000-4000-8000-000000000001'),
        post('0d000000-0000-4000-8000-000000000001'),
        post('0d000000-0000-4000-8000-000000000002', { status: 'drafty' }),
        post('0d000000-0000-4000-8000-000000000003', { websiteId: '0c000000-0000-4000-8000-000000000099' }),
        { ...post('0d000000-0000-4000-8000-000000000004'), content: 7 },
      ],
      posts: [],
    });
    const r = await runCli(['local', 'seed', file, '--store', store]);
    expect(r.exitCode).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith(`${file}: `));
    expect(lines).toEqual([
      `${file}: $.posts: unknown collection (expected one of users, agencies, websites, api_keys, business_entities, revenue_records, cost_items, ad_campaigns, ad_creatives, content_listeners, social_posts, learnings, nurture_sequences, visibility_scans, brand_subjects, crm_agents)`,
      `${file}: $.social_posts[1].id: duplicate id "0d000000-0000-4000-8000-000000000001" (also at $.social_posts[0])`,
      `${file}: $.social_posts[2].status: expected one of "draft", "scheduled", "publishing", "published", "failed", got "drafty"`,
      `${file}: $.social_posts[4].content: expected string, got number`,
      `${file}: $.social_posts[3].websiteId: no websites record with id "0c000000-0000-4000-8000-000000000099" in the file or the store`,
    ]);
    expect(r.stderr).toContain('5 problems in the fixtures; nothing was written');
    expect(existsSync(store)).toBe(false);
  });

  it('upserts by id, all or nothing: a bad file leaves an existing store byte for byte', async () => {
    const dir = tempDir('cr-seed-');
    const store = await newStore(dir);
    expect((await runCli(['local', 'seed', write(dir, 'a.json', { users: [USER], websites: [SITE], social_posts: [post('0d000000-0000-4000-8000-000000000001')] }), '--store', store])).exitCode).toBe(
      0,
    );
    const replace = write(dir, 'b.json', { social_posts: [post('0d000000-0000-4000-8000-000000000001', { content: 'changed' }), post('0d000000-0000-4000-8000-000000000002')] });
    const r = await runCli(['local', 'seed', replace, '--store', store, '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ social_posts: { added: 1, replaced: 1 } });
    const listed = await runCli(['local', 'posts', '--store', store, '--json']);
    expect(JSON.parse(listed.stdout).map((p: { id: string; content: string }) => [p.id, p.content])).toEqual([
      ['0d000000-0000-4000-8000-000000000001', 'changed'],
      ['0d000000-0000-4000-8000-000000000002', 'post 0d000000-0000-4000-8000-000000000002'],
    ]);
    const before = await runCli(['local', 'export', '--store', store]);
    const bad = write(dir, 'c.json', {
      social_posts: [post('0d000000-0000-4000-8000-000000000001', { content: 'again' }), post('0d000000-0000-4000-8000-000000000009', { websiteId: '0c000000-0000-4000-8000-000000000002' })],
    });
    expect((await runCli(['local', 'seed', bad, '--store', store])).exitCode).toBe(2);
    expect((await runCli(['local', 'export', '--store', store])).stdout).toBe(before.stdout);
  });

  it('reads standard input with -, and says what is wrong with JSON that does not parse', async () => {
    const dir = tempDir('cr-seed-');
    const store = await newStore(dir);
    const ok = await runCli(['local', 'seed', '-', '--store', store], { input: JSON.stringify({ users: [USER], websites: [SITE] }) });
    expect(ok.exitCode).toBe(0);
    expect(ok.stderr).toContain('users 1 added; websites 1 added');
    const bad = await runCli(['local', 'seed', '-', '--store', store], { input: '{"users": [' });
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/<stdin>: \$: not valid JSON/);
  });

  it('--schema prints a JSON Schema generated from the store schemas; a valid fixture passes it, a bad one does not', async () => {
    const r = await runCli(['local', 'seed', '--schema']);
    expect(r.exitCode).toBe(0);
    const schema = JSON.parse(r.stdout);
    expect(Object.keys(schema.properties)).toContain('social_posts');
    expect(schema.properties.social_posts.items.properties.status.enum).toEqual(['draft', 'scheduled', 'publishing', 'published', 'failed']);
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate({ version: 1, users: [USER], websites: [SITE], social_posts: [post('0d000000-0000-4000-8000-000000000001')] })).toBe(true);
    expect(validate({ social_posts: [post('0d000000-0000-4000-8000-000000000001', { status: 'drafty' })] })).toBe(false);
    expect(validate({ posts: [] })).toBe(false);
  });
});

describe('cr local export', () => {
  it('export → seed into a new store → export gives the same bytes (the demo store, every collection)', async () => {
    const dir = tempDir('cr-export-');
    const demo = await newStore(dir);
    expect((await runCli(['local', 'init', '--demo', '--store', demo], { env: { CR_CONFIG_DIR: dir } })).exitCode).toBe(0);
    const first = await runCli(['local', 'export', '--store', demo]);
    expect(first.exitCode).toBe(0);
    const doc = JSON.parse(first.stdout);
    expect(doc.social_posts.length).toBeGreaterThan(0);
    expect(doc.visibility_scans.length).toBeGreaterThan(0);
    const file = write(dir, 'fixtures.json', first.stdout);
    const copy = await newStore(tempDir('cr-export-copy-'));
    const seeded = await runCli(['local', 'seed', file, '--store', copy]);
    expect(seeded.exitCode).toBe(0);
    const second = await runCli(['local', 'export', '--store', copy]);
    expect(second.stdout).toBe(first.stdout);
    expect(readFileSync(file, 'utf8')).toBe(first.stdout);
  });

  it('--only some collections, and a usage error naming an unknown one', async () => {
    const dir = tempDir('cr-export-');
    const store = await newStore(dir);
    await runCli(['local', 'seed', write(dir, 'a.json', { users: [USER], websites: [SITE] }), '--store', store]);
    const r = await runCli(['local', 'export', '--store', store, '--only', 'websites']);
    expect(JSON.parse(r.stdout)).toEqual({ version: 1, websites: [SITE] });
    const bad = await runCli(['local', 'export', '--store', store, '--only', 'websites,sites']);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toContain('sites: unknown collection');
  });
});

describe('cr local websites / posts', () => {
  it('tables piped as TSV, --json, -q ids, --status; the help says the hosted API has no such endpoint', async () => {
    const dir = tempDir('cr-list-');
    const store = await newStore(dir);
    const fx = {
      users: [USER],
      websites: [SITE, { ...SITE, id: '0c000000-0000-4000-8000-000000000002', name: 'Two' }],
      social_posts: [
        post('0d000000-0000-4000-8000-000000000001'),
        post('0d000000-0000-4000-8000-000000000002', { status: 'scheduled', scheduledAt: '2026-12-01T09:00:00Z', websiteId: '0c000000-0000-4000-8000-000000000002' }),
      ],
    };
    await runCli(['local', 'seed', write(dir, 'a.json', fx), '--store', store]);
    const sites = await runCli(['local', 'websites', '--store', store]);
    expect(sites.stdout.split('\n')[0]!.split('\t')).toEqual(['0c000000-0000-4000-8000-000000000001', 'Site', 'site.example', '']);
    expect((await runCli(['local', 'websites', '--store', store, '-q'])).stdout).toBe('0c000000-0000-4000-8000-000000000001\n0c000000-0000-4000-8000-000000000002\n');
    expect((await runCli(['local', 'posts', '--store', store, '-q', '--status', 'draft'])).stdout).toBe('0d000000-0000-4000-8000-000000000001\n');
    expect((await runCli(['local', 'posts', '--store', store, '-q', '--website', '0c000000-0000-4000-8000-000000000002'])).stdout).toBe('0d000000-0000-4000-8000-000000000002\n');
    const json = JSON.parse((await runCli(['local', 'posts', '--store', store, '--json', '--status', 'scheduled'])).stdout);
    expect(json).toEqual([fx.social_posts[1]]);
    expect((await runCli(['local', 'posts', '--store', store, '--status', 'nope'])).exitCode).toBe(2);
    for (const cmd of ['websites', 'posts']) {
      const help = await runCli(['local', cmd, '--help']);
      expect(help.stdout).toContain('The hosted API has no such endpoint.');
    }
  });
});

describe('docs/fixtures.md', () => {
  it('its example seeds as written, and exports back to the same records', async () => {
    const { ROOT } = await import('../../helpers/paths.js');
    const page = readFileSync(join(ROOT, 'docs', 'fixtures.md'), 'utf8');
    const example = /```json\n([\s\S]*?)```/.exec(page)![1]!;
    const dir = tempDir('cr-docs-');
    const store = await newStore(dir);
    const r = await runCli(['local', 'seed', write(dir, 'example.json', example), '--store', store]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse((await runCli(['local', 'export', '--store', store])).stdout)).toEqual(JSON.parse(example));
  });
});
