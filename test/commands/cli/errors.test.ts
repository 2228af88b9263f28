import { describe, expect, it } from 'vitest';
import { useHarness } from '../../helpers/harness.js';
import { KEYS } from '../../helpers/fixture-store.js';
import { deadPort } from '../../helpers/http-server.js';

const h = useHarness();

describe('errors map to exit codes and one line on stderr', () => {
  it('401 → 3', async () => {
    const r = await h.cr(['finance', 'summary'], { key: KEYS.unknown });
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(/^error: Invalid API key .*\(INVALID_API_KEY\)\n$/);
    expect(r.stdout).toBe('');
  });
  it('no key configured → 3', async () => {
    const r = await h.cr(['crm', 'agents'], { key: null });
    expect(r.exitCode).toBe(3);
  });
  it('403 → 4', async () => {
    const r = await h.cr(['ads', 'create', '--format', 'video', '--name', 'n', '--url', 'https://x.example.com'], { key: KEYS.viewer });
    expect(r.exitCode).toBe(4);
    expect(r.stderr).toContain('(FORBIDDEN)');
  });
  it('403 for a website outside the key scope → 4', async () => {
    const r = await h.cr(['learnings', 'list', '--website', '22222222-2222-4222-8222-222222222222']);
    expect(r.exitCode).toBe(4);
  });
  it('400 → 6, and --json errors are one JSON line on stderr', async () => {
    // Through cr api: `cr nurture list --status bogus` is refused before sending (exit 2).
    const r = await h.cr(['api', '/content/nurture-sequences', '-F', 'status=bogus', '--json']);
    expect(r.exitCode).toBe(6);
    expect(r.stdout).toBe('');
    const err = JSON.parse(r.stderr.trim());
    expect(err).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });
  it('unreachable → 8', async () => {
    const port = await deadPort();
    const r = await h.cr(['visibility', 'grid'], { env: { CR_BASE_URL: `http://127.0.0.1:${port}/api/v1` } });
    expect(r.exitCode).toBe(8);
    expect(r.stderr).toMatch(/^error: /);
  });
  it.each([
    [['nurture', 'list', '--limit', 'abc']],
    [['nurture', 'list', '--limit', '500']],
    [['finance', 'summary', '--base-url', 'notaurl']],
    [['finance', 'summary', '--base-url', 'ftp://127.0.0.1/api/v1']],
    [['learnings', 'list', '--limit', '0']],
    [['listeners', 'create', '--name', 'x', '--source', 'myspace', '--query', 'keywords=a']],
    [['listeners', 'create', '--name', 'x', '--source', 'x', '--query-json', '[1]']],
    [['posts', 'schedule', 'p', '--at', 'tomorrow']],
    [['ads', 'create']],
    [['finance', 'bogus']],
    [['completion', 'powershell']],
  ])('usage %j → 2, nothing sent', async (args) => {
    h.seen.length = 0;
    const r = await h.cr(args);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: /);
    expect(h.seen).toHaveLength(0);
  });
});
