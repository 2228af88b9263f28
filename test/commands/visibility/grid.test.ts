import { describe, expect, it } from 'vitest';
import { ANSI, useHarness } from '../../helpers/harness.js';

const h = useHarness();

describe('cr visibility grid', () => {
  it('--json equals the API data', async () => {
    const r = await h.cr(['visibility', 'grid', '--json']);
    expect(JSON.parse(r.stdout)).toEqual(await h.apiData('/gbp/visibility'));
  });
  it('draws a heat map with the centre, legend, scan date, average and top-3 share', async () => {
    const r = await h.cr(['visibility', 'grid', '--keyword', 'plumber near me'], { tty: true });
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toContain('plumber near me');
    expect(r.stdout).not.toContain('emergency plumber');
    expect(r.stdout).toContain('[ 2]');
    expect(r.stdout).toContain('scan 2026-11-20 (2 days ago)');
    expect(r.stdout).toMatch(/average rank \d+\.\d/);
    expect(r.stdout).toMatch(/top 3 at \d+% of points/);
    expect(r.stdout).toContain('not ranking');
    expect(r.stdout).toContain('\u001b[42m'); // green band
  });
  it('piped: one TSV row per grid point, north-west first', async () => {
    const r = await h.cr(['visibility', 'grid']);
    expect(r.stdout).not.toMatch(ANSI);
    const rows = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => l.split('\t'));
    expect(rows).toHaveLength(162);
    expect(rows[0]).toEqual(['plumber near me', '1', '1', '40.8', '-74.3', '1']);
    expect(rows[40]).toEqual(['plumber near me', '5', '5', expect.any(String), expect.any(String), '2']);
    expect(rows[81]![5]).toBe(''); // not ranking
  });
});

describe('cr visibility grid --keyword for a keyword the scan does not track', () => {
  it('exit 5 (not found), naming the tracked keywords; nothing on stdout', async () => {
    for (const json of [false, true]) {
      const r = await h.cr(['visibility', 'grid', '--keyword', 'nope', ...(json ? ['--json'] : [])]);
      expect(r.exitCode).toBe(5);
      expect(r.stdout).toBe('');
      if (json) expect(JSON.parse(r.stderr)).toMatchObject({ code: 'KEYWORD_NOT_TRACKED' });
      else expect(r.stderr).toBe('error: keyword "nope" is not tracked; tracked keywords: "plumber near me", "emergency plumber" (KEYWORD_NOT_TRACKED)\n');
    }
  });
});
