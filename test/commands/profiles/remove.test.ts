import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { cleanupTempDirs, readConfig } from '../../helpers/tmp.js';
import { KEY, profilesConfig } from '../../helpers/profiles-config.js';

afterAll(() => cleanupTempDirs());

describe('cr profiles remove', () => {
  it('remove NAME deletes the profile; removing the active one leaves none active', async () => {
    const configDir = profilesConfig();
    expect((await runCli(['profiles', 'remove', 'staging'], { configDir })).exitCode).toBe(0);
    let cfg = readConfig(configDir)!;
    expect(Object.keys(cfg.profiles).sort()).toEqual(['empty', 'prod']);
    expect(cfg.activeProfile).toBe('prod');
    expect((await runCli(['profiles', 'remove', 'prod'], { configDir })).exitCode).toBe(0);
    cfg = readConfig(configDir)!;
    expect(Object.keys(cfg.profiles)).toEqual(['empty']);
    expect(cfg.activeProfile).toBeUndefined();
    expect(JSON.stringify(cfg)).not.toContain(KEY);
    expect((await runCli(['profiles', 'remove', 'prod'], { configDir })).exitCode).toBe(2);
  });
});
