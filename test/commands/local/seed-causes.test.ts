import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { newStore } from '../../helpers/store-under-test.js';

/**
 * Fixtures and plans agree on ids (docs/fixtures.md "Ids"), and a broken record is reported
 * as the cause: first, with one line for the records that name it; lists stop at 20.
 */
afterAll(() => cleanupTempDirs());

const USER = { id: 'u-1', email: 'ci@example.com', name: 'CI' };
const AGENCY = { id: 'a-1', name: 'Agency' };
const siteId = (i: number) => `0c000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const site = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: `Site ${id}`,
  domain: 'site.example',
  agency_id: 'a-1',
  owner_id: 'u-1',
  location: null,
  ...extra,
});
const post = (i: number, websiteId: string, extra: Record<string, unknown> = {}) => ({
  id: `0d000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  websiteId,
  status: 'draft',
  content: `post ${i}`,
  scheduledAt: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  ...extra,
});

async function seed(doc: unknown, flags: string[] = []) {
  const dir = tempDir('cr-seed-causes-');
  const file = join(dir, 'fx.json');
  writeFileSync(file, JSON.stringify(doc));
  const r = await runCli(['local', 'seed', file, '--store', await newStore(dir), ...flags]);
  return { ...r, file, lines: r.stderr.split('\n').filter((l) => l.startsWith(`${file}: `)) };
}

describe('cr local seed: ids the API takes as UUIDs', () => {
  it('refuses a website id that is no uuid, naming the field and the rule; the 50 posts on it are one line', async () => {
    const r = await seed({ users: [USER], agencies: [AGENCY], websites: [site('w-harbor')], social_posts: Array.from({ length: 50 }, (_, i) => post(i + 1, 'w-harbor')) });
    expect(r.exitCode).toBe(2);
    expect(r.lines).toEqual([
      `${r.file}: $.websites[0].id: expected a UUID such as 3b2f8c1d-6e4a-4f7b-a2d9-1c5e8b7f0e91, got "w-harbor" (the API's ids of websites are UUIDs: docs/fixtures.md "Ids")`,
      `${r.file}: $.websites[0]: 50 social_posts refer to it (websiteId); they were not checked against it, fix it first`,
    ]);
    expect(r.stderr).toContain('2 problems in the fixtures; nothing was written');
  });

  it('refuses a post id and a website reference that are no uuid; users and agencies keep any string id', async () => {
    const r = await seed({ users: [USER], agencies: [AGENCY], websites: [site(siteId(1))], social_posts: [post(1, siteId(1), { id: 'p-1' }), post(2, 'w-9')] });
    expect(r.lines).toEqual([
      `${r.file}: $.social_posts[0].id: expected a UUID such as 3b2f8c1d-6e4a-4f7b-a2d9-1c5e8b7f0e91, got "p-1" (the API's ids of social_posts are UUIDs: docs/fixtures.md "Ids")`,
      `${r.file}: $.social_posts[1].websiteId: expected a UUID such as 3b2f8c1d-6e4a-4f7b-a2d9-1c5e8b7f0e91, got "w-9" (the API's website ids are UUIDs: docs/fixtures.md "Ids")`,
    ]);
    const ok = await seed({ users: [USER], agencies: [AGENCY], websites: [site(siteId(1))], social_posts: [post(1, siteId(1))] });
    expect(ok.exitCode, ok.stderr).toBe(0);
  });

  it('a missing field on three websites: three problems, each followed by one line for its posts, not 50 "no websites record"', async () => {
    const sites = [1, 2, 3].map((i) => {
      const { location: _, ...rest } = site(siteId(i));
      return rest;
    });
    const posts = Array.from({ length: 50 }, (_, i) => post(i + 1, siteId((i % 3) + 1)));
    const r = await seed({ users: [USER], agencies: [AGENCY], websites: sites, social_posts: posts });
    expect(r.exitCode).toBe(2);
    expect(r.lines).toEqual([
      `${r.file}: $.websites[0].location: expected object, got nothing (missing)`,
      `${r.file}: $.websites[0]: 17 social_posts refer to it (websiteId); they were not checked against it, fix it first`,
      `${r.file}: $.websites[1].location: expected object, got nothing (missing)`,
      `${r.file}: $.websites[1]: 17 social_posts refer to it (websiteId); they were not checked against it, fix it first`,
      `${r.file}: $.websites[2].location: expected object, got nothing (missing)`,
      `${r.file}: $.websites[2]: 16 social_posts refer to it (websiteId); they were not checked against it, fix it first`,
    ]);
  });

  it('lists the first 20 problems, then how many more, with or without --json', async () => {
    const posts = Array.from({ length: 33 }, (_, i) => post(i + 1, siteId(1), { status: 'drafty' }));
    for (const flags of [[], ['--json']]) {
      const r = await seed({ users: [USER], agencies: [AGENCY], websites: [site(siteId(1))], social_posts: posts }, flags);
      expect(r.exitCode).toBe(2);
      expect(r.lines).toHaveLength(21);
      expect(r.lines[19]).toContain('$.social_posts[19].status');
      expect(r.lines[20]).toBe(`${r.file}: and 13 more problems`);
      expect(r.stderr).toContain('33 problems in the fixtures; nothing was written');
    }
  });
});

describe('docs/fixtures.md and cr local seed --schema say the same', () => {
  it('the required fields and the UUID fields of every collection', async () => {
    const { ROOT } = await import('../../helpers/paths.js');
    const schema = JSON.parse((await runCli(['local', 'seed', '--schema'])).stdout) as {
      properties: Record<string, { items?: { $ref?: string } & Item }>;
      $defs: Record<string, Item>;
    };
    interface Item {
      required: string[];
      properties: Record<string, { format?: string }>;
    }
    const fromSchema = Object.entries(schema.properties).flatMap(([c, list]) => {
      if (!list.items) return [];
      const item = list.items.$ref ? schema.$defs[list.items.$ref.split('/').pop()!]! : list.items;
      const uuids = Object.entries(item.properties)
        .filter(([, v]) => v.format === 'uuid')
        .map(([k]) => k);
      return [[c, item.required, uuids]];
    });
    const page = readFileSync(join(ROOT, 'docs', 'fixtures.md'), 'utf8');
    const table = page.slice(page.indexOf('| collection | required fields | UUID fields |'));
    const fromDocs = table
      .split('\n')
      .slice(2)
      .filter((l) => l.startsWith('| '))
      .map((l) => {
        const [c, required, uuids] = l
          .split('|')
          .slice(1, 4)
          .map((s) => s.trim());
        const names = (s: string) => [...s.matchAll(/`(\w+)`/g)].map((m) => m[1]);
        return [c, names(required!), names(uuids!)];
      });
    expect(fromDocs).toEqual(fromSchema);
    expect(fromSchema.find(([c]) => c === 'websites')).toEqual(['websites', ['id', 'name', 'domain', 'agency_id', 'owner_id', 'location'], ['id']]);
  });
});
