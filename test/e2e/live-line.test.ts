import { afterAll, describe, expect, it } from 'vitest';
import { parseFaults } from '../../src/server/app/faults.js';
import { displayWidth } from '../../src/render/width.js';
import { runOnPty } from '../helpers/pty.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { csvPlan, ids, KEYS, NOW, startBulkServer } from '../bulk/support.js';

/**
 * The bulk run's live line (docs/output.md "Live lines") on a real 80-column pseudo-terminal:
 * the bar draws on the terminal's own stderr. While the run waits out a 429's one real
 * Retry-After second, each redraw fits the terminal and keeps the seconds left.
 */
afterAll(() => cleanupTempDirs());

/**
 * Every drawing of the line: the screen split where the cursor goes back to the line's start
 * (CR, newline, CSI G as cli-progress moves it), other escape sequences removed.
 */
const drawings = (screen: string) =>
  screen
    .split(/\u001b\[\d*G|[\r\n]+/)
    .map((l) => l.replace(/\u001b\[[0-9;?]*[A-Za-z]|\u001b[78]/g, ''))
    .filter((l) => l.includes(' rows'));

describe('the bulk live line at a terminal', () => {
  it('at 80 columns every redraw fits, and the countdown keeps its seconds', async () => {
    // Seed 5 draws one 429, at the fifth send (as in test/commands/posts/schedule-from-limits.test.ts).
    const srv = await startBulkServer(12, { faults: parseFaults('scheduleSocialPost:status=429,rate=0.15,retry_after=1', 5) });
    const dir = tempDir('cr-live-');
    const file = csvPlan(dir, ids(12));
    const run = runOnPty(
      ['posts', 'schedule', '--from', file, '--wait', '--concurrency', '1'],
      { HOME: dir, CR_CONFIG_DIR: dir, CR_BASE_URL: srv.baseUrl, CR_API_KEY: KEYS.editor, CR_NOW: NOW, NO_COLOR: '1', TZ: 'UTC' },
      30_000,
      80,
    );
    try {
      const { exitCode } = await run.done;
      expect(exitCode, run.screen()).toBe(0);
      const lines = drawings(run.screen());
      expect(lines.length).toBeGreaterThan(0);
      expect(lines.filter((l) => displayWidth(l) >= 80)).toEqual([]);
      const waits = lines.filter((l) => l.includes('waiting'));
      expect(waits.length, run.screen()).toBeGreaterThan(0);
      for (const l of waits) expect(l).toMatch(/waiting \d+ s \(reset( at)? \d\d:\d\d\)/);
    } finally {
      run.kill();
      await srv.close();
    }
  }, 40_000);

  it('the low rate-limit notice is printed whole on a cleared line, wrapping on, and the bar drawn again after it', async () => {
    // Three requests in the window: the third answer says 0 of 3 left (the notice), the fourth is a 429.
    const srv = await startBulkServer(8, { rateLimit: 3 });
    const dir = tempDir('cr-live-');
    const file = csvPlan(dir, ids(8));
    const run = runOnPty(
      ['posts', 'schedule', '--from', file, '--concurrency', '1'],
      { HOME: dir, CR_CONFIG_DIR: dir, CR_BASE_URL: srv.baseUrl, CR_API_KEY: KEYS.editor, CR_NOW: NOW, NO_COLOR: '1', TZ: 'UTC' },
      30_000,
      60,
    );
    try {
      await run.done;
      const screen = run.screen();
      const at = screen.indexOf('cr: rate limit: 0 of 3 requests left for this key until');
      expect(at, screen).toBeGreaterThan(0);
      // Between the line's last start and the notice: escape sequences only (no bar left before it).
      const lineStart = Math.max(screen.lastIndexOf('\r', at), screen.lastIndexOf('\n', at));
      const before = screen.slice(lineStart + 1, at);
      expect(before.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, ''), JSON.stringify(before)).toBe('');
      expect(before).toContain('\u001b[2K');
      // Wrapping on for the notice (it is wider than 60 columns): the last wrap mode set before it is on.
      const modes = screen.slice(0, at).match(/\u001b\[\?7[hl]/g) ?? [];
      expect(modes.at(-1)).toBe('\u001b[?7h');
      // The bar comes back after it.
      expect(drawings(screen.slice(at + 10)).some((l) => /[\u2588\u2591]/.test(l))).toBe(true);
    } finally {
      run.kill();
      await srv.close();
    }
  }, 40_000);
});
