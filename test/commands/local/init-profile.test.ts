import { existsSync, mkdirSync, realpathSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sameStore } from '../../../commands/local/same-store.js';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, makeKey, readConfig, tempDir, writeConfig } from '../../helpers/tmp.js';

/**
 * `cr local init` never replaces a profile in silence (docs/local-server.md "cr local init"):
 * the profile is written when it is new or already points at this store; else exit 2, and
 * nothing is made. About the profile, not the store: JSON files only.
 */
afterAll(() => cleanupTempDirs());

const storeIn = () => join(tempDir('cr-init-profile-'), 'store.json');

describe('cr local init and the profile it writes', () => {
  it('the first init says the profile is new and that it became the active one', async () => {
    const r = await runCli(['local', 'init', '--store', storeIn()]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('it is saved as the new profile "local"');
    expect(r.stderr).toContain('"local" is now the active profile (there was none)');
    expect(readConfig(r.configDir)?.activeProfile).toBe('local');
  });

  it('a second store: exit 2 naming --profile and --replace-profile; no store made, the profile untouched', async () => {
    const first = await runCli(['local', 'init', '--store', storeIn()]);
    expect(first.exitCode, first.stderr).toBe(0);
    const before = readConfig(first.configDir);
    const second = storeIn();
    const r = await runCli(['local', 'init', '--store', second, '--demo'], { configDir: first.configDir });
    expect(r.exitCode).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/the profile "local" already points at .*store\.json; nothing was created; pass --profile NAME .* or --replace-profile/);
    expect(existsSync(second)).toBe(false);
    expect(readConfig(first.configDir)).toEqual(before);
  });

  it('--profile NAME saves the second store under that name and leaves "local" and the active profile alone', async () => {
    const first = await runCli(['local', 'init', '--store', storeIn()]);
    const before = readConfig(first.configDir)!;
    const r = await runCli(['--profile', 'ci', 'local', 'init', '--store', storeIn()], { configDir: first.configDir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('saved as the new profile "ci"');
    expect(r.stderr).not.toContain('active profile');
    expect(r.stderr).toContain('cr --profile ci finance summary');
    const after = readConfig(first.configDir)!;
    expect(after.profiles.local).toEqual(before.profiles.local);
    expect(after.profiles.ci?.apiKey).toBe(r.stdout.trim());
    expect(after.activeProfile).toBe('local');
  });

  it('--force on the same store replaces the profile, and says "replaced"', async () => {
    const store = storeIn();
    const first = await runCli(['local', 'init', '--store', store]);
    const r = await runCli(['local', 'init', '--store', store, '--force'], { configDir: first.configDir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('it replaced the key of the profile "local"');
    expect(r.stderr).not.toContain('active profile');
    expect(readConfig(first.configDir)?.profiles.local?.apiKey).toBe(r.stdout.trim());
  });

  it('the same store spelled otherwise (through a symlink, sub/../) is the same store: --force replaces the profile', async () => {
    const dir = tempDir('cr-init-profile-');
    mkdirSync(join(dir, 'real'));
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    const first = await runCli(['local', 'init', '--store', join(dir, 'real', 'a.json')]);
    expect(first.exitCode, first.stderr).toBe(0);
    for (const spelled of [join(dir, 'link', 'a.json'), `${join(dir, 'real')}/../real/a.json`]) {
      const r = await runCli(['local', 'init', '--store', spelled, '--force'], { configDir: first.configDir });
      expect(r.exitCode, r.stderr).toBe(0);
      expect(r.stderr).toContain('it replaced the key of the profile "local"');
    }
  });

  it('a store spelled through a symlink and `..` is the file the system opens: checked, made and named as such', async () => {
    const dir = tempDir('cr-init-profile-');
    mkdirSync(join(dir, 'x', 'y'), { recursive: true });
    symlinkSync(join(dir, 'x', 'y'), join(dir, 'sub2'));
    // Beside the link (where a lexical `..` points) a store exists; beside the target, none.
    const beside = await runCli(['local', 'init', '--store', join(dir, 'a.json')]);
    expect(beside.exitCode, beside.stderr).toBe(0);
    const r = await runCli(['--profile', 'other', 'local', 'init', '--store', `${join(dir, 'sub2')}/../a.json`], { configDir: beside.configDir });
    expect(r.exitCode, r.stderr).toBe(0);
    const real = join(realpathSync(join(dir, 'x')), 'a.json');
    expect(existsSync(real)).toBe(true);
    expect((readConfig(beside.configDir)?.profiles.other as { store?: string } | undefined)?.store).toBe(real);
    // Once more without --force: the existing store is named by its real path, exit 2.
    const again = await runCli(['--profile', 'other', 'local', 'init', '--store', `${join(dir, 'sub2')}/../a.json`], { configDir: beside.configDir });
    expect(again.exitCode, again.stderr).toBe(2);
    expect(again.stderr).toContain(`a store already exists at ${real}`);
  });

  it('a folder is no store: init refuses it with or without --force (exit 78), and leaves it as it was', async () => {
    const dir = tempDir('cr-init-folder-');
    mkdirSync(join(dir, 'inside'));
    for (const force of [[], ['--force']]) {
      const r = await runCli(['local', 'init', ...force, '--store', dir]);
      expect(r.exitCode, r.stderr).toBe(78);
      expect(r.stderr).toContain(`${dir}: this is a folder, not a store file`);
      expect(existsSync(join(dir, 'inside'))).toBe(true);
      expect(readConfig(r.configDir)).toBeUndefined();
    }
  });

  it('database URLs are compared by the server they reach: scheme, loopback name, port, database, user; never the password', () => {
    expect(sameStore('postgresql://cr@localhost/cms', 'postgres://cr:secret@127.0.0.1:5432/cms')).toBe(true);
    expect(sameStore('postgresql://cr@localhost/cms', 'postgresql://cr@localhost/other')).toBe(false);
    expect(sameStore('postgresql://cr@localhost/cms', 'postgresql://ops@localhost/cms')).toBe(false);
    expect(sameStore('postgresql://cr@localhost:5433/cms', 'postgresql://cr@localhost/cms')).toBe(false);
    expect(sameStore('postgresql://cr@db.example/cms', '/tmp/cms')).toBe(false);
  });

  it('CR_PROFILE names the profile as --profile does', async () => {
    const r = await runCli(['local', 'init', '--store', storeIn()], { env: { CR_PROFILE: 'envp' } });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('saved as the new profile "envp"');
    expect(readConfig(r.configDir)?.profiles.envp?.apiKey).toBe(r.stdout.trim());
    expect(readConfig(r.configDir)?.profiles.local).toBeUndefined();
  });

  it('--replace-profile replaces a profile of another store, and a profile made by auth login', async () => {
    const first = await runCli(['local', 'init', '--store', storeIn()]);
    const r = await runCli(['local', 'init', '--store', storeIn(), '--replace-profile'], { configDir: first.configDir });
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toContain('it replaced the key of the profile "local"');
    expect(readConfig(first.configDir)?.profiles.local?.apiKey).toBe(r.stdout.trim());

    const dir = tempDir('cr-init-profile-cfg-');
    writeConfig(dir, { activeProfile: 'local', profiles: { local: { baseUrl: 'https://cms.example.com/api/v1', apiKey: makeKey() } } });
    const refused = await runCli(['local', 'init', '--store', storeIn()], { configDir: dir });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('the profile "local" already points at https://cms.example.com/api/v1');
    // Replaced: its server changes, and stderr says so.
    const replaced = await runCli(['local', 'init', '--store', storeIn(), '--replace-profile'], { configDir: dir });
    expect(replaced.exitCode, replaced.stderr).toBe(0);
    expect(replaced.stderr).toContain('The profile "local" now points at http://127.0.0.1:4010/api/v1 instead of https://cms.example.com/api/v1.');
  });
});
