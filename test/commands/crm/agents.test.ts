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

  it('piped: the whole prompt on one line, never cut', async () => {
    const r = await h.cr(['crm', 'agents']);
    const cells = r.stdout.trimEnd().split('\t');
    expect(cells[4]).toBe('You are a friendly sales assistant. Qualify leads by budget, authority, need and timing before booking a call.');
    expect(r.stdout).not.toContain('…');
  });
});
