import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/serve.js';
import { fixedClock } from '../../src/server/domain/clock.js';
import { initStore } from '../../src/server/ops/init-store.js';
import { READABLE_TEXT } from '../../src/render/fit.js';
import { displayWidth } from '../../src/render/width.js';
import { linesOnPty } from '../helpers/pty.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { NOW } from '../helpers/fixture-store.js';
import { NAME_COLUMNS, TABLE_COMMANDS } from '../helpers/table-commands.js';

/**
 * Names you can read, ids you can copy (docs/output.md "Tables"), on a real pseudo-terminal
 * (util-linux `script`) of each width, because the width at stake is the terminal's own (no
 * COLUMNS): at 60, 80, 100 and 120 columns every table command, over a local server with demo
 * data, fits the terminal, never shows a cut id, keeps its name column at 16 columns or whole
 * from 80 columns, no block shows a label without its value, and a create or a schedule
 * shows its id whole.
 */
const SCRIPT = '/usr/bin/script';
const hasScript = existsSync(SCRIPT);
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/;

let server: Awaited<ReturnType<typeof startServer>>;
let key: string;
/** A copy no server holds: the `cr local` list commands read the store file itself. */
let localStore: string;
let drafts: string[];

beforeAll(async () => {
  if (!hasScript) return;
  const store = join(tempDir('cr-pty-widths-'), 'store.json');
  const made = await initStore(store, { demo: true, clock: fixedClock(NOW) });
  key = made.key;
  localStore = join(tempDir('cr-pty-widths-local-'), 'store.json');
  await initStore(localStore, { demo: true, clock: fixedClock(NOW) });
  // The key's own website's drafts: each width schedules one of them.
  const posts = (JSON.parse(readFileSync(store, 'utf8')) as { social_posts: { id: string; status: string; websiteId: string }[] }).social_posts;
  drafts = posts.filter((p) => p.status === 'draft' && p.websiteId === made.websiteId).map((p) => p.id);
  server = await startServer({ storePath: store, host: '127.0.0.1', port: 0, rateLimit: 100_000, log: false, clock: fixedClock(NOW) });
});
afterAll(async () => {
  await server?.close();
  cleanupTempDirs();
});

async function onPty(args: string[], cols: number): Promise<{ lines: string[]; code: number }> {
  return linesOnPty(args, cols, { CR_NOW: NOW, NO_COLOR: '1', CR_BASE_URL: `${server.url}/api/v1`, CR_API_KEY: key });
}

/** The cells shown under a name header: in a table, from the header's offset; in blocks, the `NAME  value` lines. */
function nameCells(lines: string[], header: string): string[] {
  const cells: string[] = [];
  let at = -1;
  const headed = new RegExp(`(^|  )${header}(  |$)`);
  for (const line of lines) {
    if (line.trim() === '') at = -1;
    else if (headed.test(line) && /^[A-Z ]+$/.test(line)) at = line.search(headed) + (line.startsWith(header) ? 0 : 2);
    else if (at >= 0) cells.push(line.slice(at).split(/ {2,}/)[0]!);
    else if (line.startsWith(`${header}  `)) cells.push(line.slice(header.length).trim());
  }
  return cells;
}

const schedule = (i: number) => ['posts', 'schedule', drafts[i % drafts.length]!, '--at', '+1d'];
const adsCreate = ['ads', 'create', '--name', 'Spring whitening campaign for the Harbor clinic', '--format', 'single_image', '--url', 'https://harbor.example/spring'];
const CREATES = new Set(['listeners', 'ads', 'posts']);

describe.skipIf(!hasScript)('tables on a pseudo-terminal of each width', () => {
  for (const [i, cols] of [60, 80, 100, 120].entries()) {
    it(`${cols} columns: every table fits, ids whole or left out, names readable, a create's id whole`, async () => {
      const runs = [...TABLE_COMMANDS, adsCreate, schedule(i), ...['keys list', 'websites', 'posts'].map((c) => ['local', ...c.split(' '), '--store', localStore])];
      for (const args of runs) {
        const what = `cr ${args.slice(0, 2).join(' ')} at ${cols}`;
        const { lines, code } = await onPty(args, cols);
        expect(code, `${what}: ${lines.join('\n')}`).toBe(0);
        expect(
          lines.filter((l) => displayWidth(l) > cols),
          what,
        ).toEqual([]);
        // A cut id is one no command takes: an id is whole or not shown.
        expect(lines.join('\n'), what).not.toMatch(/(^| {2})[0-9a-f]{4,}…/m);
        if (CREATES.has(args[0]!)) expect(lines.join('\n'), what).toMatch(UUID);
        // A block's `HEADER  value` line always has its value: a label alone (a total's empty id) says nothing.
        const bareLabels = lines.filter((l) => /^[A-Z]+(?: [A-Z]+)* {2,}$/.test(l));
        expect(bareLabels, `${what}: a label without its value\n${lines.join('\n')}`).toEqual([]);
        const header = NAME_COLUMNS[args.slice(0, 2).join(' ')];
        if (cols < 80 || header === undefined) continue;
        const cells = nameCells(lines, header);
        expect(cells.length, `${what}: ${lines.join('\n')}`).toBeGreaterThan(0);
        for (const cell of cells) expect(!cell.endsWith('…') || displayWidth(cell) >= READABLE_TEXT, `${what}: "${cell}"`).toBe(true);
        // From 100 columns the id column gives way first: while one shows, no name is cut. A
        // create keeps its new id at any width, so its name is held to the rule above only.
        const idShows = lines.some((l) => /(^| {2})ID( {2}|$)/.test(l) && /^[A-Z ]+$/.test(l));
        if (cols >= 100 && idShows && !CREATES.has(args[0]!)) {
          for (const cell of cells) expect(cell, `${what}: a name cut beside an id\n${lines.join('\n')}`).not.toMatch(/…$/);
        }
      }
    }, 120_000);
  }
});
