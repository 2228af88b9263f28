import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/harness.js';
import { KEYS } from '../../helpers/fixture-store.js';

const h = useHarness();

describe('empty lists are success', () => {
  const empty = { key: KEYS.empty };
  it.each([
    [['brand', 'subjects'], []],
    [['crm', 'agents'], { agents: [] }],
    [['nurture', 'list'], { sequences: [], total: 0, limit: 50, offset: 0 }],
    [['visibility', 'grid'], { keywords: [], scanDate: null }],
    [['finance', 'summary'], { summaries: [], invoiceAlerts: [] }],
  ])('%j --json', async (args, expected) => {
    const r = await h.cr([...args, '--json'], empty);
    expect(r.exitCode).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(expected);
    const piped = await h.cr(args, empty);
    expect(piped.exitCode).toBe(0);
    expect(piped.stdout).toBe('');
  });
  it('a terminal says so', async () => {
    expect((await h.cr(['nurture', 'list'], { ...empty, tty: true })).stdout).toContain('No nurture sequences.');
    expect((await h.cr(['visibility', 'grid'], { ...empty, tty: true })).stdout).toContain('No visibility data (no scan yet).');
    expect((await h.cr(['finance', 'summary'], { ...empty, tty: true })).stdout).toContain('No business entities.');
  });
});
