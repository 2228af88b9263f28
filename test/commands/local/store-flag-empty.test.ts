import { afterAll, describe, expect, it } from 'vitest';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBin } from '../../helpers/cli.js';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';

afterAll(() => cleanupTempDirs());

/**
 * An empty store path (`--store ''`, `--store "$UNSET"`), or one of blanks only (`--store ' '`,
 * which made a file named " "), is refused by every command that takes a store, before anything
 * is opened or made: exit 2, one usage line naming the flag
 * (docs/commands.md "Local store administration"). It meant the current folder to some
 * commands and the default store to others. No store is involved, so no PostgreSQL run.
 */
const EMPTY = /^error: --(store|from|to) needs a store file or a postgres:\/\/ URL, not an empty value/;

describe('an empty store path', () => {
  it.each([
    [['local', 'init', '--store', '']],
    [['local', 'init', '--demo', '--force', '--store=']],
    [['local', 'keys', 'list', '--store', '']],
    [['local', 'keys', 'create', '--role', 'viewer', '--website', '11111111-1111-4111-8111-111111111111', '--store', '']],
    [['local', 'keys', 'revoke', 'k-editor', '--store', '']],
    [['local', 'export', '--store', '']],
    [['local', 'websites', '--store', '']],
    [['local', 'posts', '--store', '']],
    [['local', 'reset', '--all-data', '--yes', '--store', '']],
    [['local', 'seed', 'fixtures.json', '--store', '']],
    [['local', 'restore', '--store', '']],
    [['local', 'migrate', '--store', '']],
    [['local', 'copy', '--from', '', '--to', 'copy.json']],
    [['local', 'copy', '--from', 'store.json', '--to', '']],
    [['serve', '--port', '0', '--store', '']],
  ])('cr %j: exit 2, a usage line, nothing made', async (argv) => {
    const home = tempDir('cr-store-empty-');
    const data = join(home, 'data');
    const r = await runCli(argv, { configDir: home, env: { XDG_DATA_HOME: data } });
    expect({ exitCode: r.exitCode, stdout: r.stdout }).toEqual({ exitCode: 2, stdout: '' });
    expect(r.stderr).toMatch(EMPTY);
    expect(r.stderr).toContain('(USAGE)');
    // Neither the default store nor a profile was made.
    expect(existsSync(data)).toBe(false);
    expect(readdirSync(home).filter((f) => f !== 'data')).toEqual([]);
  });

  it.each([' ', '\t', ' \t \n'])('a store of blanks only (%j): refused like an empty one, no file of that name made', async (blank) => {
    const home = tempDir('cr-store-blank-');
    const data = join(home, 'data');
    for (const argv of [
      ['local', 'init', '--store', blank],
      ['local', 'keys', 'list', `--store=${blank}`],
      ['local', 'copy', '--from', blank, '--to', 'copy.json'],
      ['local', 'copy', '--from', 'store.json', '--to', blank],
      ['serve', '--port', '0', '--store', blank],
    ]) {
      // A process of its own in the temp folder: a blank path taken as a name lands there.
      const r = await runBin(argv, { configDir: home, cwd: home, env: { XDG_DATA_HOME: data }, timeoutMs: 8000 });
      expect({ argv, exitCode: r.exitCode, stdout: r.stdout }).toEqual({ argv, exitCode: 2, stdout: '' });
      expect(r.stderr).toMatch(EMPTY);
      expect(r.stderr).toContain('(USAGE)');
    }
    expect(existsSync(data)).toBe(false);
    expect(readdirSync(home).filter((f) => f !== 'data')).toEqual([]);
  });

  it('a path with blanks around a name is kept as given (only a blank value is refused)', async () => {
    const home = tempDir('cr-store-padded-');
    const r = await runBin(['local', 'init', '--store', ' padded.json '], { configDir: home, cwd: home, env: { XDG_DATA_HOME: join(home, 'data') } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(existsSync(join(home, ' padded.json '))).toBe(true);
  });

  it('--store without --, and --json: the same refusal as JSON', async () => {
    const r = await runCli(['local', 'keys', 'list', '--json', '--store', '']);
    expect(r.exitCode).toBe(2);
    expect(JSON.parse(r.stderr)).toMatchObject({ code: 'USAGE', error: expect.stringMatching(/^--store needs a store file or a postgres:\/\/ URL, not an empty value/) });
  });

  it('cr serve --config with "store": "": refused the same way, naming the key', async () => {
    const dir = tempDir('cr-store-empty-config-');
    const config = join(dir, 'serve.json');
    writeFileSync(config, JSON.stringify({ store: '', port: 0 }), { mode: 0o600 });
    const r = await runCli(['serve', '--config', config], { configDir: dir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`--config ${config}: "store": --store needs a store file or a postgres:// URL, not an empty value`);
  });

  it.each([' ', '\t'])('cr serve --config with "store": %j: refused the same way, no file of that name made', async (blank) => {
    const dir = tempDir('cr-store-blank-config-');
    const config = join(dir, 'serve.json');
    writeFileSync(config, JSON.stringify({ store: blank, port: 0 }), { mode: 0o600 });
    const r = await runBin(['serve', '--config', config], { configDir: dir, cwd: dir, env: { XDG_DATA_HOME: join(dir, 'data') }, timeoutMs: 8000 });
    expect({ exitCode: r.exitCode, stdout: r.stdout }).toEqual({ exitCode: 2, stdout: '' });
    expect(r.stderr).toContain(`--config ${config}: "store": --store needs a store file or a postgres:// URL, not an empty value`);
    expect(readdirSync(dir)).toEqual(['serve.json']);
  });
});
