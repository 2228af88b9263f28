import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/harness.js';
import { tempDir } from '../../helpers/tmp.js';

const h = useHarness();
beforeEach(() => {
  h.seen.length = 0;
});

describe('cr ads create', () => {
  it('sends a flag per body field and prints the creative', async () => {
    const r = await h.cr([
      'ads',
      'create',
      '--format',
      'single_image',
      '--name',
      'Spring sale',
      '--campaign',
      'camp-1',
      '--url',
      'https://shop.example.com/spring',
      '--image',
      'https://cdn.example.com/a.png',
      '--image',
      'https://cdn.example.com/b.png',
      '--headline',
      'Save now',
      '--json',
    ]);
    expect(r.exitCode).toBe(0);
    const ad = JSON.parse(r.stdout);
    expect(ad).toMatchObject({
      name: 'Spring sale',
      adFormat: 'single_image',
      platform: 'google',
      campaignName: 'Spring',
      status: 'draft',
      imageUrls: ['https://cdn.example.com/a.png', 'https://cdn.example.com/b.png'],
    });
    expect(JSON.parse(h.seen[0]!.body)).toEqual({
      ad_format: 'single_image',
      name: 'Spring sale',
      campaign_id: 'camp-1',
      headline: 'Save now',
      destination_url: 'https://shop.example.com/spring',
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

  it('a missing required field → exit 2 naming the flag and the field, nothing sent', async () => {
    h.seen.length = 0;
    const r = await h.cr(['ads', 'create', '--format', 'single_image', '--name', 'No URL']);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain('missing --url (destination_url)');
    expect(h.seen).toEqual([]);
  });

  it('the server still judges what only it knows: the same body through cr api → exit 6 naming the field', async () => {
    const r = await h.cr(['api', '/content/ads/creatives/create', '-F', 'ad_format=single_image', '-F', 'name=No URL']);
    expect(r.exitCode).toBe(6);
    expect(r.stderr).toMatch(/Validation error.*destination_url/);
  });
});
