import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { ANSI, useHarness } from './harness.js';
import { KEYS, POST_DRAFT, POST_MISSING } from './fixture.js';
import { tempDir } from '../helpers/tmp.js';

const h = useHarness();
beforeEach(() => {
  h.seen.length = 0;
});

describe('cr posts schedule', () => {
  it('schedules at a relative time from CR_NOW and prints id, status, time', async () => {
    const r = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '+2h', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ id: POST_DRAFT, status: 'scheduled', scheduledAt: '2026-11-22T12:00:00.000Z' });
    expect(JSON.parse(h.seen[0]!.body)).toEqual({ scheduled_at: '2026-11-22T12:00:00.000Z' });
    const t = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '2026-11-23T09:30:00+01:00'], { tty: true });
    expect(t.exitCode).toBe(0);
    expect(t.stdout).toContain('2026-11-23 08:30 UTC (in 23 hours)');
    const p = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '+1d']);
    expect(p.stdout).not.toMatch(ANSI);
    expect(p.stdout.trimEnd().split('\t').slice(0, 2)).toEqual([POST_DRAFT, 'scheduled']);
  });

  it('an absolute --at is sent as written (the post holds the requested time); +2h as UTC', async () => {
    h.seen.length = 0;
    const r = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '2026-11-23T09:30:00+01:00', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(h.seen[0]!.body)).toEqual({ scheduled_at: '2026-11-23T09:30:00+01:00' });
    expect(JSON.parse(r.stdout)).toMatchObject({ scheduledAt: '2026-11-23T09:30:00+01:00' });
    // A looser spelling the API would refuse is sent as the parsed instant.
    const loose = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '2026-11-23 09:30Z', '--dry-run', '--json']);
    expect(JSON.parse(loose.stdout).body).toEqual({ scheduled_at: '2026-11-23T09:30:00.000Z' });
  });

  it('refuses a past time before sending (exit 2)', async () => {
    const r = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '2026-11-22T09:00:00Z']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/in the past/);
    expect(h.seen).toHaveLength(0);
  });

  it('unknown post → exit 5; viewer key → exit 4', async () => {
    const r = await h.cr(['posts', 'schedule', POST_MISSING, '--at', '+1h']);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).toMatch(/^error: Not found/);
    const v = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '+1h'], { key: KEYS.viewer });
    expect(v.exitCode).toBe(4);
    expect(v.stderr).toContain('Insufficient role');
  });
});

describe('cr ads create', () => {
  it('sends a flag per body field and prints the creative', async () => {
    const r = await h.cr(['ads', 'create', '--format', 'single_image', '--name', 'Spring sale', '--campaign', 'camp-1', '--url', 'https://shop.example.com/spring', '--image', 'https://cdn.example.com/a.png', '--image', 'https://cdn.example.com/b.png', '--headline', 'Save now', '--json']);
    expect(r.exitCode).toBe(0);
    const ad = JSON.parse(r.stdout);
    expect(ad).toMatchObject({ name: 'Spring sale', adFormat: 'single_image', platform: 'google', campaignName: 'Spring', status: 'draft', imageUrls: ['https://cdn.example.com/a.png', 'https://cdn.example.com/b.png'] });
    expect(JSON.parse(h.seen[0]!.body)).toEqual({
      ad_format: 'single_image', name: 'Spring sale', campaign_id: 'camp-1', headline: 'Save now', destination_url: 'https://shop.example.com/spring',
      image_urls: ['https://cdn.example.com/a.png', 'https://cdn.example.com/b.png'],
    });
  });

  it('--body FILE with flags on top; --website goes in the body', async () => {
    const file = join(tempDir(), 'ad.json');
    writeFileSync(file, JSON.stringify({ ad_format: 'video', name: 'From file', destination_url: 'https://x.example.com', platform: 'meta' }));
    const r = await h.cr(['ads', 'create', '--body', file, '--name', 'Flag wins', '--website', '11111111-1111-4111-8111-111111111111'], { tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('Flag wins');
    expect(JSON.parse(h.seen[0]!.body)).toMatchObject({ name: 'Flag wins', ad_format: 'video', platform: 'meta', website_id: '11111111-1111-4111-8111-111111111111' });
  });

  it('a server validation failure → exit 6 naming the field', async () => {
    const r = await h.cr(['ads', 'create', '--format', 'single_image', '--name', 'No URL']);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/Validation error.*destination_url/);
  });
});

describe('cr listeners create', () => {
  it('builds query_config from --query (keywords always an array) and sends website_id in the query', async () => {
    const r = await h.cr(['listeners', 'create', '--name', 'News', '--source', 'google_news', '--query', 'keywords=acme', '--interval', '6h', '--website', '11111111-1111-4111-8111-111111111111', '--json']);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'News', sourceType: 'google_news', queryConfig: { keywords: ['acme'] }, pollInterval: '6h', enabled: true });
    expect(h.seen[0]!.url).toContain('website_id=11111111-1111-4111-8111-111111111111');
    expect(JSON.parse(h.seen[0]!.body)).toEqual({ name: 'News', source_type: 'google_news', query_config: { keywords: ['acme'] }, poll_interval: '6h' });
  });

  it('--query-json; terminal table', async () => {
    const r = await h.cr(['listeners', 'create', '--name', 'Feed', '--source', 'rss', '--query-json', '{"feed_url":"https://example.com/feed.xml"}'], { tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('https://example.com/feed.xml');
    expect(r.stdout).toContain('24h');
  });

  it('missing source keys: exit 2 with the server message, nothing sent', async () => {
    const r = await h.cr(['listeners', 'create', '--name', 'R', '--source', 'reddit', '--query', 'flair=x']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('A listener with source_type reddit requires query_config.subreddit or query_config.keywords');
    expect(h.seen).toHaveLength(0);
  });
});

describe('--dry-run sends nothing', () => {
  it.each([
    [['ads', 'create', '--format', 'video', '--name', 'D', '--url', 'https://x.example.com', '--dry-run'], '/content/ads/creatives/create', '"ad_format": "video"'],
    [['listeners', 'create', '--name', 'D', '--source', 'x', '--query', 'handle=acme', '--dry-run', '--website', '11111111-1111-4111-8111-111111111111'], '/content/listeners?website_id=11111111-1111-4111-8111-111111111111', '"handle": "acme"'],
    [['posts', 'schedule', POST_DRAFT, '--at', '+30m', '--dry-run'], `/social/posts/${POST_DRAFT}/schedule`, '"scheduled_at": "2026-11-22T10:30:00.000Z"'],
  ])('%j', async (args, path, bodyPart) => {
    const r = await h.cr(args);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split('\n')[0]).toBe(`POST ${h.baseUrl}${path}`);
    expect(r.stdout).toContain(bodyPart);
    expect(r.stderr).toContain('nothing was sent');
    expect(h.seen).toHaveLength(0);
  });

  it('needs no key (nothing is sent), only a base URL', async () => {
    const r = await h.cr(['ads', 'create', '--format', 'video', '--name', 'D', '--url', 'https://x.example.com', '--campaign-id', 'camp-1', '--product-line-id', 'pl-1', '--dry-run', '--json'], { key: null });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ method: 'POST', body: { ad_format: 'video', campaign_id: 'camp-1', product_line_id: 'pl-1' } });
    expect(h.seen).toHaveLength(0);
  });

  it('--json prints the request as one object', async () => {
    const r = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '+1h', '--dry-run', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({ method: 'POST', url: `${h.baseUrl}/social/posts/${POST_DRAFT}/schedule`, body: { scheduled_at: '2026-11-22T11:00:00.000Z' } });
    expect(h.seen).toHaveLength(0);
  });
});
