import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/harness.js';
import { SITE } from '../../helpers/fixture-store.js';

const h = useHarness();

describe('cr brand subjects', () => {
  it('brand: --json equals the API data; table has image count and primary URL', async () => {
    const r = await h.cr(['brand', 'subjects', '--json']);
    expect(JSON.parse(r.stdout)).toEqual(await h.apiData('/brand/brand-subjects'));
    const t = await h.cr(['brand', 'subjects']);
    expect(t.stdout.trimEnd().split('\t')).toEqual(['bs-1', 'Maxi', 'mascot', 'active', '2', 'https://cdn.example.com/maxi-front.png']);
  });
  it('--website is sent as website_id on reads', async () => {
    const r = await h.cr(['brand', 'subjects', '--website', SITE]);
    expect(r.exitCode).toBe(0);
    expect(h.seen.at(-1)!.url).toContain(`website_id=${SITE}`);
  });
});
