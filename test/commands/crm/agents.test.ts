import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/harness.js';

const h = useHarness();

describe('cr crm agents', () => {
  it('crm: --json equals the API data; table shows the active version and a one-line preview', async () => {
    const r = await h.cr(['crm', 'agents', '--json']);
    expect(JSON.parse(r.stdout)).toEqual(await h.apiData('/integrations/crm/agents'));
    const t = await h.cr(['crm', 'agents'], { tty: true });
    expect(t.stdout).toContain('v3');
    expect(t.stdout).toContain('You are a friendly sales assistant. Qualify');
  });
});
