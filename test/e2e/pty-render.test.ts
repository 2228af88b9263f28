import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/server/serve.js';
import { fixedClock } from '../../src/server/domain/clock.js';
import { crCommand } from '../helpers/cli.js';
import { shellQuote as quote, spawnProcess } from '../helpers/process.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';
import { KEYS, NOW } from '../helpers/fixture-store.js';
import { HOSTILE, writeHostileStore } from '../helpers/hostile-store.js';
import { TABLE_COMMANDS } from '../helpers/table-commands.js';

/**
 * On a real pseudo-terminal (util-linux `script`), because what is at stake is what a
 * terminal receives: the width the CLI reads from the terminal itself (no COLUMNS), and
 * the bytes that reach it (docs/cli-contract.md "At a terminal"). The spinner is kept off (CI=1): its
 * cursor codes are not API text.
 */
const SCRIPT = '/usr/bin/script';
const hasScript = existsSync(SCRIPT);

type Server = Awaited<ReturnType<typeof startServer>>;
/** A copy no server holds: `cr local keys list` reads the store file itself. */
let hostileKeysStore: string;
let hostile: Server;
let hostileStore: string;

beforeAll(async () => {
  if (!hasScript) return;
  hostileKeysStore = writeHostileStore(tempDir('cr-pty-hostile-keys-'));
  hostileStore = writeHostileStore(tempDir('cr-pty-hostile-'));
  hostile = await startServer({ storePath: hostileStore, host: '127.0.0.1', port: 0, rateLimit: 100_000, log: false, clock: fixedClock(NOW) });
});
afterAll(async () => {
  await hostile?.close();
  cleanupTempDirs();
});

/** Runs bin/cr.js on a pty `cols` wide; returns the raw bytes the terminal got and the exit code. */
async function onPty(args: string[], cols: number, env: Record<string, string>): Promise<{ bytes: Buffer; code: number }> {
  const dir = tempDir('cr-pty-cfg-');
  const command = `stty cols ${cols} rows 50; exec ${crCommand(args).map(quote).join(' ')}`;
  const r = await spawnProcess(SCRIPT, ['-qfec', command, '/dev/null'], {
    env: { HOME: dir, CR_CONFIG_DIR: dir, CR_NOW: NOW, TZ: 'UTC', TERM: 'xterm-256color', CI: '1', ...env },
    execa: { encoding: 'buffer' },
    timeoutMs: 30_000,
  });
  // script passes the child's exit status on with -e.
  return { bytes: Buffer.from(r.stdout as unknown as Uint8Array), code: r.exitCode ?? -1 };
}

const TABLES = TABLE_COMMANDS;

describe.skipIf(!hasScript)('on a pseudo-terminal', () => {
  // Each table at 60, 80, 100 and 120 columns on a pty of that width: test/e2e/pty-widths.test.ts.

  it('hostile API text: no ESC, BEL or C1 CSI byte reaches the terminal', async () => {
    const env = { CR_BASE_URL: `${hostile.url}/api/v1`, CR_API_KEY: KEYS.editor, NO_COLOR: '1' };
    const runs = [...TABLES.slice(0, 6), ['local', 'keys', 'list', '--store', hostileKeysStore], ['visibility', 'grid', '--keyword', 'nope']];
    for (const args of runs) {
      const { bytes, code } = await onPty(args, 100, env);
      expect(code, args.join(' ')).toBe(args.includes('nope') ? 5 : 0);
      for (const byte of [0x1b, 0x07, 0x9b]) expect(bytes.includes(byte), `${args.join(' ')}: byte 0x${byte.toString(16)}`).toBe(false);
    }
    // The escaped form shows what was there.
    const { bytes } = await onPty(['crm', 'agents'], 200, env);
    expect(bytes.toString('utf8')).toContain('\\x1b]0;pwned\\x07');
    expect(HOSTILE.title).toContain('\u001b');
  }, 120_000);
});
