import { afterAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { newStore } from '../../helpers/store-under-test.js';

/** docs/fixtures.md "The cause first", for a record nested too deeply to be stored. */
afterAll(() => cleanupTempDirs());

const SITE = '0c000000-0000-4000-8000-000000000001';
const post = (i: number) => ({
  id: `0d000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
  websiteId: SITE,
  status: 'draft',
  content: `post ${i}`,
  scheduledAt: null,
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
});

describe('cr local seed: a record nested too deeply', () => {
  it('is one line, its path in [i] notation, then one line for the 4 posts that name it', async () => {
    const dir = tempDir('cr-seed-deep-');
    const file = join(dir, 'fx.json');
    const depth = 300_000;
    const site = JSON.stringify({ id: SITE, name: 'S', domain: 's.example', agency_id: null, owner_id: 'u-1', location: null, x: 0 }).replace('"x":0', `"x":${'['.repeat(depth)}${']'.repeat(depth)}`);
    const posts = JSON.stringify([1, 2, 3, 4].map(post));
    writeFileSync(file, `{"users":[{"id":"u-1","email":"a@b.c","name":"U"}],"websites":[${site}],"social_posts":${posts}}`);
    const r = await runCli(['local', 'seed', file, '--store', await newStore(dir)]);
    expect(r.exitCode).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith(`${file}: `));
    expect(lines).toEqual([
      `${file}: $.websites[0].x${'[0]'.repeat(31)}: Nested deeper than 32 levels (a record may nest at most 32 levels)`,
      `${file}: $.websites[0]: 4 social_posts refer to it (websiteId); they were not checked against it, fix it first`,
    ]);
  });
});

describe('cr local seed: long values and names are cut in problems', () => {
  it('a 20 MB status and a 420-character collection name: 200 characters shown, the length named', async () => {
    const dir = tempDir('cr-seed-long-');
    const file = join(dir, 'fx.json');
    const name = 'c'.repeat(420);
    writeFileSync(file, JSON.stringify({ [name]: [], social_posts: [{ ...post(1), status: 's'.repeat(20_000_000) }] }));
    const r = await runCli(['local', 'seed', file, '--store', await newStore(dir)]);
    expect(r.exitCode).toBe(2);
    const lines = r.stderr.split('\n').filter((l) => l.startsWith(`${file}: `));
    expect(lines.find((l) => l.includes('unknown collection'))).toContain(`$.${'c'.repeat(200)}… (420 characters): unknown collection`);
    expect(lines.find((l) => l.includes('.status:'))).toMatch(/… \(20,0\d\d,\d{3} characters\)$/);
    for (const l of lines) expect(l.length).toBeLessThan(1000);
  }, 60_000);
});

describe('cr local seed: a JSON syntax error', () => {
  it('names the line and column, not only the character position', async () => {
    const dir = tempDir('cr-seed-syntax-');
    const file = join(dir, 'fx.json');
    writeFileSync(file, '{\n  "users": [\n    {"id": "u-1",}\n  ]\n}\n');
    const r = await runCli(['local', 'seed', file, '--store', await newStore(dir)]);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/not valid JSON \(.*\(line 3,? column 18\)\); nothing was written/);
  });
});
