import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, readConfig, tempDir } from '../../helpers/tmp.js';

/**
 * `cr local init` whose profile cannot be written (a full disk, a config folder that cannot be
 * made: here a path under a regular file, which fails for root too): the store and its admin
 * key exist by then, so the key is still printed, once, and the failure says how to keep it.
 */
afterAll(() => cleanupTempDirs());

/** A config folder that can never be made: its parent is a file. */
function unwritableConfig(): string {
  const dir = tempDir('cr-init-unsaved-');
  writeFileSync(join(dir, 'file'), '');
  return join(dir, 'file', 'config');
}

describe('cr local init when the profile cannot be saved', () => {
  it.each([[[]], [['--json']]])('the key is printed all the same %j, then exit 1 saying the profile was not saved and how to save it', async (extra) => {
    const store = join(tempDir('cr-init-unsaved-store-'), 'store.json');
    const r = await runCli(['local', 'init', '--store', store, ...extra], { configDir: unwritableConfig() });
    expect(r.exitCode).toBe(1);
    const key = extra.length ? (JSON.parse(r.stdout) as { key: string }).key : r.stdout.trim();
    expect(key).toMatch(/^cr_[0-9a-f]{40}$/);
    const message = extra.length ? (JSON.parse(r.stderr.trim().split('\n').pop()!) as { error: string; code: string }) : { error: r.stderr, code: '' };
    expect(message.error).toContain('the profile "local" could not be saved (ENOTDIR)');
    expect(message.error).toContain('cr auth login --profile local --base-url http://127.0.0.1:4010/api/v1 --no-verify --with-key');
    if (extra.length) expect(message.code).toBe('PROFILE_NOT_SAVED');
    // The key printed is the store's: it works against that store.
    const served = await runCli(['finance', 'summary', '--local', '--json'], { env: { CR_STORE: store, CR_API_KEY: key } });
    expect(served.exitCode, served.stderr).toBe(0);
  });

  it('control: with a config folder that can be written, the profile is saved and exit 0', async () => {
    const r = await runCli(['local', 'init', '--store', join(tempDir('cr-init-unsaved-store-'), 'store.json')]);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(readConfig(r.configDir)?.profiles?.local?.apiKey).toBe(r.stdout.trim());
  });
});
