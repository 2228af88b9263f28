import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chmodSync, chownSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBin } from '../helpers/cli.js';
import { runCli } from '../helpers/run-cli.js';
import { tempDir, cleanupTempDirs, makeKey } from '../helpers/tmp.js';
import { ensureBuilt } from './support.js';

/**
 * Item 11: config safety. Whatever the umask, the config file is 0600 in a 0700 folder, and
 * stays so after later writes; an invalid config file is reported by path and left
 * untouched; a config file readable by others triggers a warning on stderr.
 *
 * The umask (a process's own) and logins racing on the file's lock from separate processes run
 * `bin/cr.js`; the rest run in-process (`runCli`), with the same config folder and HOME.
 */
afterAll(() => cleanupTempDirs());
beforeAll(async () => {
  await ensureBuilt();
}, 120_000);

const BASE = 'http://127.0.0.1:9/api/v1';
const mode = (p: string) => statSync(p).mode & 0o777;

/** A config folder that does not exist yet (so cr creates it), inside a fresh temp folder. */
function freshConfigDir(): string {
  return join(tempDir('cr-cfg-safety-'), 'nested', 'cr');
}

const cr = (args: string[], configDir: string, o: { umask?: string; input?: string } = {}) =>
  runBin(args, { configDir, umask: o.umask, input: o.input, env: { CR_CONFIG_DIR: configDir, HOME: join(configDir, '..') } });
const crIn = (args: string[], configDir: string, o: { input?: string } = {}) => runCli(args, { configDir, input: o.input, env: { CR_CONFIG_DIR: configDir, HOME: join(configDir, '..') } });

describe('config safety', () => {
  for (const umask of ['000', '022']) {
    it(`umask ${umask}: config file 0600 in a 0700 folder, after login and after every later write`, async () => {
      const dir = freshConfigDir();
      const file = join(dir, 'config.json');
      const login = await cr(['auth', 'login', '--base-url', BASE, '--with-key', '--no-verify'], dir, { umask, input: makeKey('1a2b', '9f0e') + '\n' });
      expect(login.exitCode, login.stderr).toBe(0);
      expect(mode(file)).toBe(0o600);
      expect(mode(dir)).toBe(0o700);

      const steps: [string, string[], string?][] = [
        ['second login', ['auth', 'login', '--profile', 'ci', '--base-url', BASE, '--with-key', '--no-verify'], makeKey('3c4d', '7a8b') + '\n'],
        ['profiles use', ['profiles', 'use', 'ci']],
        ['profiles use back', ['profiles', 'use', 'default']],
        ['auth logout', ['auth', 'logout', '--profile', 'ci']],
      ];
      for (const [name, args, input] of steps) {
        const r = await cr(args, dir, { umask, input });
        expect(r.exitCode, `${name}: ${r.stderr}`).toBe(0);
        expect(mode(file), name).toBe(0o600);
        expect(mode(dir), name).toBe(0o700);
        expect(r.stderr, name).not.toMatch(/readable by others/);
      }
    });
  }

  it('a config file loosened to 0644 by hand: a warning naming the file on stderr; the next write tightens it back to 0600', async () => {
    const dir = freshConfigDir();
    const file = join(dir, 'config.json');
    expect((await crIn(['auth', 'login', '--base-url', BASE, '--with-key', '--no-verify'], dir, { input: makeKey() + '\n' })).exitCode).toBe(0);
    chmodSync(file, 0o644);
    const read = await crIn(['profiles', 'list'], dir);
    expect(read.exitCode).toBe(0);
    expect(read.stderr).toContain(file);
    expect(read.stderr).toMatch(/warning: .*readable by others.*chmod 600/);
    expect(read.stdout).not.toMatch(/warning/);
    expect(mode(file), 'a read does not change the mode').toBe(0o644);
    const write = await crIn(['profiles', 'use', 'default'], dir);
    expect(write.exitCode).toBe(0);
    expect(mode(file)).toBe(0o600);
    const after = await crIn(['profiles', 'list'], dir);
    expect(after.stderr).not.toMatch(/readable by others/);
  });

  const INVALID: [string, string][] = [
    ['not JSON', '{"profiles": {"default": {"apiKey": '],
    ['empty file', ''],
    ['a JSON array', '[1, 2, 3]'],
    ['profiles is not an object', '{"profiles": 42}'],
    ['binary garbage', '\u0000\u00ff\u00fe garbage'],
  ];
  for (const [name, content] of INVALID) {
    it(`an invalid config file (${name}) is reported with its path and left unchanged, for reads and writes`, async () => {
      const dir = freshConfigDir();
      mkdirSync(dir, { recursive: true, mode: 0o700 });
      const file = join(dir, 'config.json');
      writeFileSync(file, content, { mode: 0o600 });
      const before = readFileSync(file);
      for (const args of [
        ['profiles', 'list'],
        ['auth', 'status'],
        ['auth', 'login', '--base-url', BASE, '--with-key', '--no-verify'],
        ['profiles', 'use', 'default'],
      ]) {
        const r = await crIn(args, dir, { input: makeKey() + '\n' });
        expect(r.exitCode, `${args.join(' ')}: ${r.stderr}`).not.toBe(0);
        expect(r.stderr, args.join(' ')).toContain(file);
        expect(existsSync(file)).toBe(true);
        expect(readFileSync(file).equals(before), `${args.join(' ')} left the file unchanged`).toBe(true);
        expect(mode(file)).toBe(0o600);
      }
    });
  }

  it('ten `cr auth login --profile pN` at once: every profile is kept, and keys the file held besides profiles stay', async () => {
    const dir = freshConfigDir();
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const file = join(dir, 'config.json');
    writeFileSync(file, `${JSON.stringify({ profiles: {}, fromNewerCr: { kept: true } })}\n`, { mode: 0o600 });
    const names = Array.from({ length: 10 }, (_, i) => `p${i}`);
    const runs = await Promise.all(
      names.map((name, i) => cr(['auth', 'login', '--profile', name, '--base-url', BASE, '--with-key', '--no-verify'], dir, { input: makeKey('1a2b', `00${i}0`) + '\n' })),
    );
    for (const r of runs) expect(r.exitCode, r.stderr).toBe(0);
    const config = JSON.parse(readFileSync(file, 'utf8'));
    expect(Object.keys(config.profiles).sort()).toEqual(names);
    expect(config.fromNewerCr).toEqual({ kept: true });
    expect(names).toContain(config.activeProfile);
    expect(mode(file)).toBe(0o600);
    expect(existsSync(`${file}.lock`)).toBe(false);
  }, 60_000);

  // Only root can give a folder to another user; elsewhere this case cannot be set up.
  it.runIf(process.getuid?.() === 0)('a config folder that belongs to another user is refused (exit 1), and nothing is written in it', async () => {
    const dir = freshConfigDir();
    mkdirSync(dir, { recursive: true, mode: 0o755 });
    chownSync(dir, 65534, 65534);
    const r = await cr(['auth', 'login', '--base-url', BASE, '--with-key', '--no-verify'], dir, { input: makeKey() + '\n' });
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toMatch(/belongs to another user/);
    expect(existsSync(join(dir, 'config.json'))).toBe(false);
  });
});
