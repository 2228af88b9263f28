import { afterAll, describe, expect, it } from 'vitest';
import { cpSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NODE, ROOT } from '../helpers/cli.js';
import { spawnProcess } from '../helpers/process.js';
import { runOnPty } from '../helpers/pty.js';
import { cleanupTempDirs, tempDir } from '../helpers/tmp.js';

afterAll(() => cleanupTempDirs());

/**
 * Help answered from the pages the build rendered (src/startup/help-pages.ts, scripts/help-pages.mjs)
 * must be what the CLI bundle prints. Two installed layouts side by side: one as built, one
 * without dist/bundle/help/ (every request goes to the bundle); each help request runs in
 * both, under an environment unlike the build's, and the outputs must be equal byte for byte.
 * A real process: the launcher is what answers.
 */
function installedCopy(pages: boolean, docs: boolean): string {
  const dir = tempDir('cr-help-');
  cpSync(join(ROOT, 'bin'), join(dir, 'bin'), { recursive: true });
  cpSync(join(ROOT, 'dist', 'bundle'), join(dir, 'dist', 'bundle'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  if (!pages) rmSync(join(dir, 'dist', 'bundle', 'help'), { recursive: true });
  if (docs) {
    mkdirSync(join(dir, 'docs'));
    cpSync(join(ROOT, 'docs', 'commands.md'), join(dir, 'docs', 'commands.md'));
  }
  return dir;
}

const home = tempDir('cr-help-home-');
// Nothing like the build's environment: a profile, a server, a forced terminal, a wide COLUMNS.
const ENV = {
  HOME: home,
  CR_CONFIG_DIR: join(home, 'config'),
  CR_PROFILE: 'staging',
  CR_BASE_URL: 'http://127.0.0.1:9/api/v1',
  CR_FORCE_TTY: '1',
  COLUMNS: '200',
  LANG: 'C.UTF-8',
  CR_STARTUP_DEBUG: '1',
};

/** A run of `cr ARGS` from the copy in `dir`; the copy's own folder reads `<install>` in its output. */
async function run(dir: string, args: string[]) {
  const r = await spawnProcess(NODE, [join(dir, 'bin', 'cr.js'), ...args], { cwd: home, env: ENV, execa: { stripFinalNewline: false } });
  const own = (text: unknown) => String(text).replaceAll(dir, '<install>');
  return { exitCode: r.exitCode, stdout: own(r.stdout), stderr: own(r.stderr) };
}

/** Runs each request in both layouts, a few at a time; returns the pairs. */
async function bothWays(fast: string, slow: string, requests: string[][]) {
  const pairs: { args: string[]; fast: Awaited<ReturnType<typeof run>>; slow: Awaited<ReturnType<typeof run>> }[] = [];
  for (let i = 0; i < requests.length; i += 6) {
    const batch = requests.slice(i, i + 6);
    pairs.push(...(await Promise.all(batch.map(async (args) => ({ args, fast: await run(fast, args), slow: await run(slow, args) })))));
  }
  return pairs;
}

/** A page's command words (`index` is `cr` itself; `help.TOPIC` a topic page). */
const pageWords = (file: string) => {
  const [kind, ...words] = file.replace(/\.txt$/, '').split('.');
  return kind === 'topic' ? ['help', ...words] : words;
};
const PAGES = readdirSync(join(ROOT, 'dist', 'bundle', 'help'));

describe('help pages (src/startup/help-pages.ts)', () => {
  it('every page is what the bundle prints, for every command and topic, in each plain form', async () => {
    expect(PAGES.length).toBeGreaterThan(40);
    const fast = installedCopy(true, true);
    const slow = installedCopy(false, true);
    const requests = PAGES.flatMap((f) => {
      const words = pageWords(f);
      if (words[0] === 'help') return [words];
      return [
        [...words, '--help'],
        ['help', ...words],
      ];
    });
    requests.push([], ['-h'], ['finance', 'summary', '-h'], ['local', 'keys', 'create', '-h']);
    // Words that are no command's path (a page's file name, a topic behind `help help`) are not pages.
    const notPages = [
      ['help', 'index'],
      ['help', 'cr'],
      ['help', 'help', 'environment'],
      ['help', 'topic', 'environment'],
      ['environment', '--help'],
    ];
    requests.push(...notPages);
    const cacheLine = /^cr: code cache \w+ \(.*\)\n/;
    for (const { args, fast: f, slow: s } of await bothWays(fast, slow, requests)) {
      // The same answer either way; the bundle names its code cache first (CR_STARTUP_DEBUG).
      expect(s.stderr, `cr ${args.join(' ')}`).toMatch(cacheLine);
      expect(f.stdout, `cr ${args.join(' ')}`).toBe(s.stdout);
      expect(f.exitCode, `cr ${args.join(' ')}`).toBe(s.exitCode);
      if (notPages.includes(args)) {
        expect(f.stderr, `cr ${args.join(' ')}`).toBe(s.stderr);
      } else {
        // A command's or topic's page: no bundle at all, and no error.
        expect(f.stderr, `cr ${args.join(' ')}`).toBe('');
        expect(s.stderr.replace(cacheLine, '')).toBe('');
        expect(f.exitCode).toBe(0);
      }
    }
  }, 120_000);

  it('an install path with $ in it is printed as it is (no replacement pattern)', async () => {
    const dir = tempDir("cr-help-$&-$'-");
    for (const pages of [true, false]) cpSync(installedCopy(pages, true), join(dir, pages ? 'fast' : 'slow'), { recursive: true });
    const [pair] = await bothWays(join(dir, 'fast'), join(dir, 'slow'), [['--help']]);
    expect(pair!.fast.stdout).toContain('On this machine: <install>/docs/ (commands.md');
    expect(pair!.fast.stdout).toBe(pair!.slow.stdout);
  });

  it('the docs line names the installed docs, or is left out as the bundle leaves it out', async () => {
    for (const docs of [true, false]) {
      const fast = installedCopy(true, docs);
      const slow = installedCopy(false, docs);
      const [pair] = await bothWays(fast, slow, [['--help']]);
      expect(pair!.fast.stdout).toBe(pair!.slow.stdout);
      if (docs) expect(pair!.fast.stdout).toContain('On this machine: <install>/docs/ (commands.md');
      else expect(pair!.fast.stdout).not.toContain('On this machine');
    }
  });

  it('anything but a plain help request goes to the bundle: options, aliases, operands, unknown words, a missing or empty page', async () => {
    const fast = installedCopy(true, true);
    rmSync(join(fast, 'dist', 'bundle', 'help', 'cr.visibility.grid.txt'));
    writeFileSync(join(fast, 'dist', 'bundle', 'help', 'cr.finance.txt'), '');
    for (const args of [
      ['--json', '--help'],
      ['finance', 'summary', '--json', '--help'],
      ['help', 'finance', 'summry'],
      ['nope', '--help'],
      ['visibility', 'grid', '--help'],
      ['finance', '--help'],
    ]) {
      const r = await run(fast, args);
      expect(r.stderr, `cr ${args.join(' ')}`).toMatch(/^cr: code cache \w+/);
    }
  });

  it("at a terminal help is the bundle's, wrapped at the terminal's width", async () => {
    const pty = runOnPty(['--help'], ENV, 20_000, 150);
    expect((await pty.done).exitCode).toBe(0);
    expect(pty.screen()).toMatch(/cr: code cache \w+/);
    // At 80 columns this description wraps; at 150 it is one line.
    expect(pty.screen()).toContain('--verbose            log each HTTP request and response to stderr (key redacted)');
  });
});
