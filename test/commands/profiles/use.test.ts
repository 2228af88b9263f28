import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, readConfig } from '../../helpers/tmp.js';
import { profilesConfig } from '../../helpers/profiles-config.js';

afterAll(() => cleanupTempDirs());

describe('cr profiles use', () => {
  it('use NAME switches the active profile (seen by auth status)', async () => {
    const configDir = profilesConfig();
    const r = await runCli(['profiles', 'use', 'staging'], { configDir });
    expect(r.exitCode).toBe(0);
    expect(readConfig(configDir)!.activeProfile).toBe('staging');
    const s = await runCli(['auth', 'status', '--json'], { configDir });
    expect(JSON.parse(s.stdout)).toMatchObject({ profile: 'staging', key: 'cr_5555…6666', baseUrl: 'http://staging.example/api/v1' });
  });

  it('use of an unknown profile → exit 2, nothing changed', async () => {
    const configDir = profilesConfig();
    const r = await runCli(['profiles', 'use', 'nope'], { configDir });
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^error: No profile named "nope"/);
    expect(readConfig(configDir)!.activeProfile).toBe('prod');
  });
});
