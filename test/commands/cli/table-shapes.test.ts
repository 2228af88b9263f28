import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../src/server/serve.js';
import { fixedClock } from '../../../src/server/domain/clock.js';
import { initStore } from '../../../src/server/ops/init-store.js';
import { IDS_LEFT_OUT } from '../../../src/render/table.js';
import { displayWidth } from '../../../src/render/width.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { NOW } from '../../helpers/fixture-store.js';
import { runCli } from '../../helpers/run-cli.js';
import { NAME_COLUMNS, TABLE_COMMANDS } from '../../helpers/table-commands.js';

/**
 * Tables keep their shape (docs/output.md "Tables"): at a terminal 60, 80, 100 and 120
 * columns wide, every list command shows the same columns in the same order, its id columns
 * whole or left out (always below 100 columns), and no line wider than the terminal. The CLI runs in-process with terminal streams
 * of that width; test/e2e/pty-render.test.ts checks on a real pseudo-terminal that the width
 * is the terminal's own.
 */
let server: Awaited<ReturnType<typeof startServer>>;
let key: string;
let keysStore: string;

beforeAll(async () => {
  const store = join(tempDir('cr-tables-'), 'store.json');
  key = (await initStore(store, { demo: true, clock: fixedClock(NOW) })).key;
  keysStore = join(tempDir('cr-tables-keys-'), 'store.json');
  await initStore(keysStore, { demo: true, clock: fixedClock(NOW) });
  server = await startServer({ storePath: store, host: '127.0.0.1', port: 0, rateLimit: 100_000, log: false, clock: fixedClock(NOW) });
});
afterAll(async () => {
  await server?.close();
  cleanupTempDirs();
});

/** The CLI at a terminal `cols` wide (stdin, stdout and stderr terminals, as on a pty): the lines it shows, and the exit code. */
async function onTerminal(args: string[], cols: number): Promise<{ lines: string[]; code: number }> {
  const r = await runCli(args, {
    env: { CR_NOW: NOW, TZ: 'UTC', TERM: 'xterm-256color', CI: '1', CR_BASE_URL: `${server.url}/api/v1`, CR_API_KEY: key },
    tty: { out: true, err: true, in: true },
    columns: cols,
  });
  return { lines: r.stdout.split('\n'), code: r.exitCode };
}

const LISTS: { args: string[]; header: string[] }[] = [
  { args: ['nurture', 'list', '--limit', '5'], header: ['ID', 'TITLE', 'STATUS', 'STEPS', 'UPDATED'] },
  { args: ['brand', 'subjects'], header: ['ID', 'NAME', 'TYPE', 'STATUS', 'IMAGES', 'PRIMARY IMAGE'] },
  { args: ['crm', 'agents'], header: ['ID', 'NAME', 'STATUS', 'VERSION', 'PROMPT', 'CRM ID'] },
  { args: ['learnings', 'list', '--limit', '5'], header: ['ID', 'CONF', 'TYPE', 'VALUE', 'CHANNEL', 'EVIDENCE', 'SUMMARY'] },
  { args: ['local', 'keys', 'list'], header: ['ID', 'NAME', 'ROLE', 'SCOPE', 'SCOPE ID', 'CREATED', 'REVOKED'] },
  { args: ['local', 'websites'], header: ['ID', 'NAME', 'DOMAIN', 'AGENCY'] },
  { args: ['local', 'posts'], header: ['ID', 'WEBSITE', 'STATUS', 'SCHEDULED', 'CONTENT'] },
];

const ID_HEADERS = new Set(['ID', 'WEBSITE', 'AGENCY', 'CRM ID', 'SCOPE ID']);

/** The start of an id followed by `…`: an id cut, which no command takes. */
const CUT_ID = /[0-9a-f]{8}-[0-9a-f-]*…/;

/** A header cell as drawn: whole, or cut with `…` from the left. */
const headerMatches = (shown: string, full: string) => shown === full || (shown.endsWith('…') && full.startsWith(shown.slice(0, -1)));

describe('list tables on a terminal', () => {
  for (const { args, header } of LISTS) {
    it(`cr ${args.slice(0, 2).join(' ')}: one column set, in one order, ids left out below 100, at 60, 80, 100 and 120 columns`, async () => {
      const full = args[0] === 'local' ? [...args, '--store', keysStore] : args;
      for (const cols of [60, 80, 100, 120]) {
        const { lines, code } = await onTerminal(full, cols);
        expect(code, `${args.join(' ')} at ${cols}`).toBe(0);
        const shown = lines[0]!.split(/ {2,}/).map((c) => c.trim());
        // Id columns (ID, WEBSITE, AGENCY, CRM ID) leave together; the others keep their order.
        const expected = shown[0] === 'ID' ? header : header.filter((h) => !ID_HEADERS.has(h));
        if (cols < 100) expect(shown).not.toContain('ID');
        expect(shown.length, `${args.join(' ')} at ${cols}: ${lines[0]}`).toBe(expected.length);
        for (const [i, cell] of shown.entries()) expect(headerMatches(cell, expected[i]!), `${cell} for ${expected[i]} at ${cols}`).toBe(true);
        // The id column gives way first: while it shows, no name cell is cut.
        const name = NAME_COLUMNS[args.slice(0, 2).join(' ')];
        if (shown[0] === 'ID' && name) {
          const at = lines[0]!.indexOf(`  ${name}`) + 2;
          const rows = lines.slice(1).filter((l) => l.trim() !== '' && !l.startsWith('showing') && !l.startsWith(IDS_LEFT_OUT));
          expect(rows.length).toBeGreaterThan(0);
          for (const row of rows) expect(row.slice(at).split(/ {2,}/)[0], `${args.join(' ')} at ${cols}: ${row}`).not.toMatch(/…$/);
        }
        expect(
          lines.filter((l) => displayWidth(l) > cols),
          `${args.join(' ')} at ${cols}`,
        ).toEqual([]);
        expect(lines.join('\n')).not.toMatch(/[┌│└]/);
        expect(lines.join('\n'), `${args.join(' ')} at ${cols}`).not.toMatch(CUT_ID);
      }
    }, 120_000);
  }

  it('finance summary: the same columns at 80, 100 and 120, the id left out so that entity names stay whole (--wide shows it); blocks at 60, where its money cannot fit', async () => {
    const header = ['ID', 'ENTITY', 'MRR', 'CLIENTS', 'RENEWAL', 'COST', 'AI COST', 'MARGIN'];
    for (const cols of [80, 100, 120]) {
      const { lines, code } = await onTerminal(['finance', 'summary'], cols);
      expect(code).toBe(0);
      expect(lines[0]).toBe('Business entities');
      // At 120 the id would fit only with `Northwind Digital LLC` cut: the id gives way first.
      expect(lines[1]!.split(/ {2,}/).map((c) => c.trim())).toEqual(header.slice(1));
      expect(lines).toContain(IDS_LEFT_OUT);
      if (cols >= 100)
        expect(
          lines.some((l) => l.startsWith('Northwind Digital LLC  ')),
          lines.join('\n'),
        ).toBe(true);
      expect(lines.filter((l) => displayWidth(l) > cols)).toEqual([]);
    }
    const wide = await onTerminal(['finance', 'summary', '--wide'], 120);
    expect(wide.lines[1]!.split(/ {2,}/).map((c) => c.trim())).toEqual(header);
    const narrow = await onTerminal(['finance', 'summary'], 60);
    expect(narrow.lines.some((l) => /^MRR {2,}\$/.test(l))).toBe(true);
    expect(narrow.lines.filter((l) => displayWidth(l) > 60)).toEqual([]);
  }, 120_000);

  it('--wide: every cell whole at 60 columns; --no-headers: rows only', async () => {
    const wide = await onTerminal(['crm', 'agents', '--wide'], 60);
    expect(wide.code).toBe(0);
    expect(wide.lines.join('\n')).toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    expect(wide.lines[0]).not.toContain('…');
    const bare = await onTerminal(['nurture', 'list', '--limit', '3', '--no-headers'], 100);
    expect(bare.code).toBe(0);
    expect(bare.lines[0]).not.toMatch(/^ID /);
    expect(bare.lines.filter((l) => /^[0-9a-f]{8}/.test(l))).toHaveLength(3);
  }, 60_000);
});

const TABLES = TABLE_COMMANDS;

describe('every table fits the terminal', () => {
  for (const cols of [60, 80]) {
    it(`at ${cols} columns, with no escape sequence (CI=1: no spinner)`, async () => {
      for (const args of [...TABLES, ['local', 'keys', 'list', '--store', keysStore]]) {
        const { lines, code } = await onTerminal(args, cols);
        expect(code, args.join(' ')).toBe(0);
        expect(lines.join('\n')).not.toContain('\u001b');
        expect(
          lines.filter((l) => displayWidth(l) > cols),
          `${args.join(' ')} at ${cols}`,
        ).toEqual([]);
      }
    });
  }
});
