import { beforeEach, describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/harness.js';
import { POST_DRAFT } from '../../helpers/fixture-store.js';

const h = useHarness();
beforeEach(() => {
  h.seen.length = 0;
});

describe('--dry-run sends nothing', () => {
  it.each([
    [['ads', 'create', '--format', 'video', '--name', 'D', '--url', 'https://x.example.com', '--dry-run'], '/content/ads/creatives/create', '"ad_format": "video"'],
    [
      ['listeners', 'create', '--name', 'D', '--source', 'x', '--query', 'handle=acme', '--dry-run', '--website', '11111111-1111-4111-8111-111111111111'],
      '/content/listeners?website_id=11111111-1111-4111-8111-111111111111',
      '"handle": "acme"',
    ],
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
    const r = await h.cr(
      [
        'ads',
        'create',
        '--format',
        'video',
        '--name',
        'D',
        '--url',
        'https://x.example.com',
        '--campaign-id',
        'camp-1',
        '--product-line-id',
        '0b253a23-6fd1-4921-86e4-4954cb8dbbba',
        '--dry-run',
        '--json',
      ],
      {
        key: null,
      },
    );
    expect(r.exitCode, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ method: 'POST', body: { ad_format: 'video', campaign_id: 'camp-1', product_line_id: '0b253a23-6fd1-4921-86e4-4954cb8dbbba' } });
    expect(h.seen).toHaveLength(0);
  });

  it('--json prints the request as one object', async () => {
    const r = await h.cr(['posts', 'schedule', POST_DRAFT, '--at', '+1h', '--dry-run', '--json']);
    expect(JSON.parse(r.stdout)).toEqual({ method: 'POST', url: `${h.baseUrl}/social/posts/${POST_DRAFT}/schedule`, body: { scheduled_at: '2026-11-22T11:00:00.000Z' } });
    expect(h.seen).toHaveLength(0);
  });
});
