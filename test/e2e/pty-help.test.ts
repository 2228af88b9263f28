import { existsSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { linesOnPty } from '../helpers/pty.js';
import { cleanupTempDirs } from '../helpers/tmp.js';
import { NOW } from '../helpers/fixture-store.js';

/**
 * Help where a person reads it: on a real pseudo-terminal (util-linux `script`), whose width
 * commander reads from the process's own stdout. The shapes of list tables at 60 to 120
 * columns are checked in-process (test/commands/cli/table-shapes.test.ts), and on a real
 * pseudo-terminal by test/e2e/pty-render.test.ts.
 */
const SCRIPT = '/usr/bin/script';
const hasScript = existsSync(SCRIPT);

afterAll(() => cleanupTempDirs());

const _quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** bin/cr.js on a pty `cols` wide; the lines the terminal shows (colour and CR removed) and the exit code. */
async function onPty(args: string[], cols: number): Promise<{ lines: string[]; code: number }> {
  return linesOnPty(args, cols, { CR_NOW: NOW, LANG: 'C.UTF-8' });
}

describe.skipIf(!hasScript)('help on a pseudo-terminal', () => {
  it('cr alone and cr nurture print their help, exit 0', async () => {
    const root = await onPty([], 100);
    expect(root.code).toBe(0);
    expect(root.lines[0]).toBe('Usage: cr [options] [command]');
    expect(root.lines).toContain('Global Options:');
    const group = await onPty(['nurture'], 100);
    expect(group.code).toBe(0);
    expect(group.lines[0]).toBe('Usage: cr nurture [options] [command]');
  }, 60_000);

  it('a command offers only the global options it honours, once, under their own heading', async () => {
    const serve = (await onPty(['serve', '--help'], 100)).lines.join('\n');
    expect(serve.match(/Global Options:/g)).toHaveLength(1);
    for (const flag of ['--csv', '--jsonl', '--quiet', '--jq', '--base-url', '--profile']) expect(serve).not.toContain(flag);
    const nurture = (await onPty(['nurture', 'list', '--help'], 100)).lines.join('\n');
    for (const flag of ['--csv', '--jsonl', '--jq', '--wide', '--no-headers', '--profile', '--base-url']) expect(nurture).toContain(flag);
    const finance = (await onPty(['finance', 'summary', '--help'], 100)).lines.join('\n');
    expect(finance).not.toContain('--jsonl');
  }, 60_000);

  it('cr help environment, exit-codes and formatting are pages of their own', async () => {
    for (const [topic, first] of [
      ['environment', 'Environment variables'],
      ['exit-codes', 'Exit codes'],
      ['formatting', 'Output formats'],
    ]) {
      const r = await onPty(['help', topic!], 100);
      expect(r.code).toBe(0);
      expect(r.lines[0]).toBe(first);
    }
  }, 60_000);
});
