import { afterAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, tempDir } from '../../helpers/tmp.js';
import { readStore } from '../../../src/local/read-store.js';

// The JSON store file only, not the `commands-pg` pass (vitest.config.ts): --local works on store files only (docs/shared-sandbox.md).

/**
 * --local's own credential (docs/cli-contract.md "Local mode in CI"): it never changes a profile the user
 * made, makes no new key per run, and does not make a new admin key after the user revoked
 * its key. In-process; the default store lives under the run's HOME.
 */
afterAll(() => cleanupTempDirs());

const storeOf = (home: string) => join(home, '.local', 'share', 'cr', 'store.json');
const keysOf = async (home: string) => (await readStore(storeOf(home))).api_keys;

describe('--local and the profile "local"', () => {
  it('leaves the profile from `cr local init --store X` unchanged, and the CI recipe key keeps working', async () => {
    const home = tempDir('cr-cred-');
    const ciStore = join(home, 'ci-store.json');
    const init = await runCli(['local', 'init', '--store', ciStore, '--demo'], { configDir: home });
    expect(init.exitCode).toBe(0);
    const config = readFileSync(join(home, 'config.json'), 'utf8');
    expect(config).toContain(init.stdout.trim());

    const local = await runCli(['--local', 'brand', 'subjects', '--json'], { configDir: home });
    expect(local.exitCode).toBe(0);
    expect(readFileSync(join(home, 'config.json'), 'utf8')).toBe(config);
    // The recipe's key is still the one the CI store knows.
    const list = await runCli(['local', 'keys', 'list', '--store', ciStore, '--json'], { configDir: home });
    expect((JSON.parse(list.stdout) as unknown[]).length).toBe(1);
    expect(local.stdout).not.toContain('cr_');
  });

  it('makes its key once (with a notice), then reuses it: no new key per run', async () => {
    const home = tempDir('cr-cred-');
    const first = await runCli(['--local', 'brand', 'subjects'], { configDir: home });
    expect(first.exitCode).toBe(0);
    expect(first.stderr).toMatch(/made an admin key \(id [0-9a-f-]{36}\) for .*store\.json; kept in .*store\.json\.local-key \(mode 0600\), not in a profile/);
    const made = await keysOf(home);
    for (let i = 0; i < 3; i++) {
      const r = await runCli(['--local', 'brand', 'subjects'], { configDir: home });
      expect(r.exitCode).toBe(0);
      expect(r.stderr).not.toContain('made an admin key');
    }
    expect(await keysOf(home)).toEqual(made);
  });
});

describe('--local after its key was revoked', () => {
  it('refuses with a hint (exit 3) instead of making another admin key; --for-local gives it one', async () => {
    const home = tempDir('cr-cred-');
    expect((await runCli(['--local', 'brand', 'subjects'], { configDir: home })).exitCode).toBe(0);
    for (const k of await keysOf(home)) expect((await runCli(['local', 'keys', 'revoke', k.id], { configDir: home })).exitCode).toBe(0);
    const before = await keysOf(home);

    const refused = await runCli(['--local', 'brand', 'subjects'], { configDir: home });
    expect(refused.exitCode).toBe(3);
    expect(refused.stderr).toContain('was revoked at');
    expect(refused.stderr).toContain('cr local keys create --role admin --website ID --for-local');
    expect(await keysOf(home)).toEqual(before);

    const websiteId = (await readStore(storeOf(home))).websites[0]!.id;
    const given = await runCli(['local', 'keys', 'create', '--role', 'admin', '--website', websiteId, '--for-local'], { configDir: home });
    expect(given.exitCode).toBe(0);
    expect(given.stdout).toBe(''); // kept beside the store, never printed
    expect(given.stderr).toContain('for --local; kept in');
    const again = await runCli(['--local', 'brand', 'subjects'], { configDir: home });
    expect(again.exitCode).toBe(0);
    expect(again.stderr).not.toContain('made an admin key');
    expect(await keysOf(home)).toHaveLength(before.length + 1);
  });
});
