import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServer } from '../../../src/server/serve.js';
import { fixedClock } from '../../../src/server/domain/clock.js';
import { runCli, type RunCliOptions } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { KEYS, NOW, fixtureStore } from '../../helpers/fixture-store.js';
import { HOSTILE, RAW_CONTROL, writeHostileStore } from '../../helpers/hostile-store.js';
import { fail, ok, startTestServer, type TestServer } from '../../helpers/http-server.js';
import { storeFrom } from '../../helpers/store-under-test.js';

// docs/cli-contract.md "At a terminal": text from the API or a store is never written raw. The real
// server serves a store full of escape sequences; every output mode must show them escaped.
let server: Awaited<ReturnType<typeof startServer>>;
let stub: TestServer;
let keysStore: string;

beforeAll(async () => {
  const storePath = await storeFrom(writeHostileStore(tempDir('cr-hostile-')));
  keysStore = await storeFrom(writeHostileStore(tempDir('cr-hostile-keys-')));
  server = await startServer({ storePath, host: '127.0.0.1', port: 0, rateLimit: 100_000, log: false, clock: fixedClock(NOW) });
  // The one thing the real server cannot be made to say: an error message with controls.
  stub = await startTestServer(fail(400, `bad name ${HOSTILE.title}${HOSTILE.csi}`, `BAD${HOSTILE.csi}`));
});
afterAll(async () => {
  await server.close();
  await stub.close();
  cleanupTempDirs();
});

const cr = (args: string[], opts: RunCliOptions = {}) => runCli(args, { ...opts, env: { CR_BASE_URL: `${server.url}/api/v1`, CR_API_KEY: KEYS.editor, CR_NOW: NOW, COLUMNS: '100', ...opts.env } });

const COMMANDS = [
  ['finance', 'summary'],
  ['crm', 'agents'],
  ['brand', 'subjects'],
  ['nurture', 'list', '--limit', '3'],
  ['learnings', 'list'],
  ['visibility', 'grid'],
];

/** Colour is the one escape a terminal may get: SGR sequences, nothing else. */
const withoutColour = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '');

describe('hostile text from the API', () => {
  for (const args of COMMANDS) {
    it(`${args.join(' ')}: escaped on a terminal (with and without colour) and in TSV`, async () => {
      for (const opts of [{ tty: true }, { tty: true, env: { NO_COLOR: undefined } }, {}] as RunCliOptions[]) {
        const r = await cr(args, opts);
        expect(r.exitCode).toBe(0);
        expect(withoutColour(r.stdout)).not.toMatch(RAW_CONTROL);
        expect(r.stdout).toMatch(/\\x(1b|9b)/);
      }
    });
  }

  it('the escaped form is readable: \\x1b]0;pwned\\x07', async () => {
    const r = await cr(['crm', 'agents']);
    expect(r.stdout).toContain('Closer \\x1b]0;pwned\\x07\\x1b[2J');
    expect(r.stdout).toContain('\\x9b31m');
  });

  it('--json stays JSON, with no raw C1 byte', async () => {
    const r = await cr(['crm', 'agents', '--json']);
    expect(r.stdout).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(r.stdout).agents[0].name).toBe(`Closer ${HOSTILE.title}`);
    expect(JSON.parse(r.stdout).agents[0].activePromptVersion.promptText).toContain(HOSTILE.csi);
  });

  it('--json writes bidirectional overrides as \\u escapes: still the same JSON', async () => {
    const name = 'invoice\u202efdp.exe \u2066x\u2069';
    const bidi = await startTestServer(ok({ agents: [{ id: 'a', crmAgentId: 'c', name, status: 'active', activePromptVersion: null, createdAt: '2026-01-01T00:00:00Z' }] }));
    try {
      const r = await cr(['crm', 'agents', '--json'], { tty: true, env: { CR_BASE_URL: bidi.baseUrl } });
      expect(r.stderr).toBe('');
      expect(r.exitCode).toBe(0);
      expect(r.stdout).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
      expect(r.stdout).toContain('invoice\\u202efdp.exe \\u2066x\\u2069');
      expect(JSON.parse(r.stdout).agents[0].name).toBe(name);
    } finally {
      await bidi.close();
    }
  });

  it('direction marks (ALM, LRM, RLM) and line separators are escaped at a terminal and in --json and --jsonl', async () => {
    // U+200F before a file extension reorders nothing by itself but steers the neighbours of an
    // override; U+2028 breaks a line in some viewers. None reaches the screen raw.
    const name = 'pay\u200ffdp.exe\u061c \u200e\u2028end';
    const marks = await startTestServer(ok({ agents: [{ id: 'a', crmAgentId: 'c', name, status: 'active', activePromptVersion: null, createdAt: '2026-01-01T00:00:00Z' }] }));
    const RAW = /[\u061c\u200e\u200f\u2028]/;
    try {
      const table = await cr(['crm', 'agents'], { tty: true, env: { CR_BASE_URL: marks.baseUrl } });
      expect(table.exitCode, table.stderr).toBe(0);
      expect(table.stdout).not.toMatch(RAW);
      expect(table.stdout).toContain('pay\\u200ffdp.exe\\u061c');
      for (const mode of ['--json', '--jsonl']) {
        const r = await cr(['crm', 'agents', mode], { tty: true, env: { CR_BASE_URL: marks.baseUrl } });
        expect(r.exitCode, r.stderr).toBe(0);
        expect(r.stdout).not.toMatch(RAW);
        expect(r.stdout).toContain('pay\\u200ffdp.exe\\u061c \\u200e\\u2028end');
        const first = mode === '--json' ? JSON.parse(r.stdout).agents[0] : JSON.parse(r.stdout.split('\n')[0]);
        expect(first.name).toBe(name);
      }
    } finally {
      await marks.close();
    }
  });

  it('the zero-width space, word joiner and U+FEFF are escaped at a terminal and in --json; the zero-width joiner of an emoji is kept', async () => {
    const name = 'ad\u200bmin\u2060\ufeff \u{1f468}\u200d\u{1f469}';
    const marks = await startTestServer(ok({ agents: [{ id: 'a', crmAgentId: 'c', name, status: 'active', activePromptVersion: null, createdAt: '2026-01-01T00:00:00Z' }] }));
    try {
      for (const mode of [[], ['--json']]) {
        const r = await cr(['crm', 'agents', ...mode], { tty: true, env: { CR_BASE_URL: marks.baseUrl } });
        expect(r.exitCode, r.stderr).toBe(0);
        expect(r.stdout).not.toMatch(/[\u200b\u2060\ufeff]/);
        expect(r.stdout).toContain('ad\\u200bmin\\u2060\\ufeff');
        expect(r.stdout).toContain('\u{1f468}\u200d\u{1f469}');
      }
    } finally {
      await marks.close();
    }
  });

  it('the deprecated format controls (U+206A-U+206F) and the interlinear annotation controls (U+FFF9-U+FFFB) are escaped at a terminal and in --json', async () => {
    // Symmetric swapping and shaping switches change how the neighbours are shown; an annotation
    // may be drawn above its base or not at all. None has a use in exchanged text (Unicode §23.2, §23.8).
    const name = 'Acme\u206a(\u206e1)\ufff9base\ufffahidden\ufffb';
    const marks = await startTestServer(ok({ agents: [{ id: 'a', crmAgentId: 'c', name, status: 'active', activePromptVersion: null, createdAt: '2026-01-01T00:00:00Z' }] }));
    const RAW = /[\u206a-\u206f\ufff9-\ufffb]/;
    try {
      const table = await cr(['crm', 'agents', '--wide'], { tty: true, env: { CR_BASE_URL: marks.baseUrl } });
      expect(table.exitCode, table.stderr).toBe(0);
      expect(table.stdout).not.toMatch(RAW);
      expect(table.stdout).toContain('Acme\\u206a(\\u206e1)\\ufff9base\\ufffahidden\\ufffb');
      const json = await cr(['crm', 'agents', '--json'], { tty: true, env: { CR_BASE_URL: marks.baseUrl } });
      expect(json.stdout).not.toMatch(RAW);
      expect(JSON.parse(json.stdout).agents[0].name).toBe(name);
    } finally {
      await marks.close();
    }
  });

  it("a long value in a column the API does not bound (an agent's CRM id, a status) keeps the table inside the terminal", async () => {
    const agent = { id: '3b2f8c1d-6e4a-4f7b-a2d9-1c5e8b7f0e91', name: 'Reception', status: 'active', activePromptVersion: null, createdAt: '2026-01-01T00:00:00Z' };
    const widest = (out: string) =>
      Math.max(
        ...withoutColour(out)
          .split('\n')
          .map((l) => l.length),
      );
    // A CRM id is an id: left out with the others when it cannot fit whole (docs/output.md "Tables").
    const longId = await startTestServer(ok({ agents: [{ ...agent, crmAgentId: 'ghl-'.repeat(500) }] }));
    // A status outside the vocabulary cannot be shortened: the block form cuts it to the line.
    const longStatus = await startTestServer(ok({ agents: [{ ...agent, status: 'x'.repeat(3000), crmAgentId: 'ghl-1' }] }));
    try {
      for (const columns of [120, 80]) {
        const r = await cr(['crm', 'agents'], { tty: true, env: { CR_BASE_URL: longId.baseUrl, COLUMNS: String(columns) } });
        expect(r.exitCode, r.stderr).toBe(0);
        expect(withoutColour(r.stdout)).toMatch(/^NAME +STATUS/);
        expect(withoutColour(r.stdout)).toContain('ids left out at this width');
        expect(widest(r.stdout), r.stdout).toBeLessThanOrEqual(columns);
      }
      for (const columns of [120, 80, 40]) {
        const r = await cr(['crm', 'agents'], { tty: true, env: { CR_BASE_URL: longStatus.baseUrl, COLUMNS: String(columns) } });
        expect(r.exitCode, r.stderr).toBe(0);
        // The block form keeps ids whole (36 characters and a label) even below 60 columns.
        expect(widest(r.stdout), r.stdout).toBeLessThanOrEqual(Math.max(columns, 45));
      }
    } finally {
      await longId.close();
      await longStatus.close();
    }
  });

  it('blank characters a terminal draws but a width table counts as none (Hangul fillers, soft hyphen) cannot push a row past the terminal', async () => {
    // Terminals (glibc wcwidth, xterm, VTE) draw U+3164 and U+115F two columns wide, U+FFA0 and
    // U+00AD one; measured as nothing, 40 of them would wrap the row and draw its tail as a row of its own.
    const name = `x${'\u3164'.repeat(20)}${'\u115f'.repeat(10)}${'\uffa0\u00ad'.repeat(10)}FAKE ROW`;
    const drawn = (line: string) => [...line].reduce((w, c) => w + (/[\u3164\u115f]/.test(c) ? 2 : 1), 0);
    const fillers = await startTestServer(ok({ agents: [{ id: 'a', crmAgentId: 'c', name, status: 'active', activePromptVersion: null, createdAt: '2026-01-01T00:00:00Z' }] }));
    try {
      for (const columns of [120, 80]) {
        const r = await cr(['crm', 'agents'], { tty: true, env: { CR_BASE_URL: fillers.baseUrl, COLUMNS: String(columns) } });
        expect(r.exitCode, r.stderr).toBe(0);
        const lines = withoutColour(r.stdout).split('\n');
        expect(Math.max(...lines.map(drawn)), r.stdout).toBeLessThanOrEqual(columns);
      }
    } finally {
      await fillers.close();
    }
  });

  it('cr local keys list: escaped on a terminal and piped', async () => {
    for (const tty of [true, false]) {
      // --wide: the whole name, escapes included, whatever the terminal's width.
      const r = await runCli(['local', 'keys', 'list', '--store', keysStore, ...(tty ? ['--wide'] : [])], { tty, env: { CR_NOW: NOW } });
      expect(r.exitCode).toBe(0);
      expect(r.stdout).not.toMatch(RAW_CONTROL);
      expect(r.stdout).toContain('editor \\x1b]0;pwned');
    }
  });

  it('cr local posts: line and paragraph separators, U+FEFF and vertical controls escaped as in every other table, on a terminal and piped', async () => {
    // A post's content is store text like any other cell (docs/output.md "What goes where"):
    // tab and line breaks become one space, every other control or separator is shown escaped.
    const s = fixtureStore();
    s.social_posts[0]!.content = 'Line one\nline two\u2028sep\u2029para\ufeffbom\u000bvt\u000cff';
    const dir = tempDir('cr-hostile-posts-');
    writeFileSync(join(dir, 'store.json'), JSON.stringify(s));
    const store = await storeFrom(join(dir, 'store.json'));
    for (const tty of [true, false]) {
      const r = await runCli(['local', 'posts', '--store', store, ...(tty ? ['--wide'] : [])], { tty, env: { CR_NOW: NOW } });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stdout).not.toMatch(/[\u2028\u2029\ufeff\u000b\u000c]/);
      expect(r.stdout, tty ? 'terminal' : 'piped').toContain('Line one line two\\u2028sep\\u2029para\\ufeffbom\\x0bvt\\x0cff');
    }
  });

  it('an error line quoting API text: escaped, in text and in --json', async () => {
    const env = { CR_BASE_URL: stub.baseUrl };
    const text = await cr(['crm', 'agents'], { env });
    expect(text.exitCode).toBe(6);
    expect(text.stderr).toMatch(/^error: .*bad name \\x1b\]0;pwned\\x07/);
    expect(text.stderr).not.toMatch(RAW_CONTROL);
    const json = await cr(['crm', 'agents', '--json'], { env });
    expect(json.stderr).not.toMatch(RAW_CONTROL);
    expect(JSON.parse(json.stderr).error).toBe(`bad name ${HOSTILE.title}${HOSTILE.csi}`);
  });

  it('an error line naming a stored keyword: escaped', async () => {
    const r = await cr(['visibility', 'grid', '--keyword', `nope${HOSTILE.title}`]);
    expect(r.exitCode).toBe(5);
    expect(r.stderr).not.toMatch(RAW_CONTROL);
    expect(r.stderr).toContain('"plumber \\x1b]0;pwned\\x07\\x1b[2J"');
  });
});
