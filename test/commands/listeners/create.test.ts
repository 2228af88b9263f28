import { beforeEach, describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/harness.js';

const h = useHarness();
beforeEach(() => {
  h.seen.length = 0;
});

describe('cr listeners create', () => {
  it('builds query_config from --query (keywords always an array) and sends website_id in the query', async () => {
    const r = await h.cr([
      'listeners',
      'create',
      '--name',
      'News',
      '--source',
      'google_news',
      '--query',
      'keywords=acme',
      '--interval',
      '6h',
      '--website',
      '11111111-1111-4111-8111-111111111111',
      '--json',
    ]);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'News', sourceType: 'google_news', queryConfig: { keywords: ['acme'] }, pollInterval: '6h', enabled: true });
    expect(h.seen[0]!.url).toContain('website_id=11111111-1111-4111-8111-111111111111');
    expect(JSON.parse(h.seen[0]!.body)).toEqual({ name: 'News', source_type: 'google_news', query_config: { keywords: ['acme'] }, poll_interval: '6h' });
  });

  it('--query-json; terminal table', async () => {
    const r = await h.cr(['listeners', 'create', '--name', 'Feed', '--source', 'rss', '--query-json', '{"feed_url":"https://example.com/feed.xml"}'], { tty: true, env: { COLUMNS: '220' } });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('https://example.com/feed.xml');
    expect(r.stdout).toContain('24h');
    // On a narrower terminal the query text is cut to fit; the id and the date never are.
    const narrow = await h.cr(['listeners', 'create', '--name', 'Feed', '--source', 'rss', '--query-json', '{"feed_url":"https://example.com/feed.xml"}'], { tty: true, env: { COLUMNS: '120' } });
    expect(narrow.stdout).toContain('…');
    expect(narrow.stdout).toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);
    for (const line of narrow.stdout.trimEnd().split('\n')) expect(line.replace(/\x1b\[[0-9;]*m/g, '').length).toBeLessThanOrEqual(120);
  });

  it('missing source keys: exit 2 with the server message, nothing sent', async () => {
    const r = await h.cr(['listeners', 'create', '--name', 'R', '--source', 'reddit', '--query', 'flair=x']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('A listener with source_type reddit requires query_config.subreddit or query_config.keywords');
    expect(h.seen).toHaveLength(0);
  });
});
