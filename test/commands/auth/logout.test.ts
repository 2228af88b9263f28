import { describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/run-cli.js';
import { makeKey, readConfig, tempDir, writeConfig } from '../../helpers/tmp.js';
import { useTestServer, ok } from '../../helpers/http-server.js';
import { financeData } from '../../helpers/fixtures.js';

const KEY = makeKey('1a2b', '9f0e', 'c');

const server = useTestServer(ok(financeData()));

describe('cr auth logout', () => {
  it('removes the key of the active profile, keeps its base URL; status then exits 3', async () => {
    const configDir = tempDir();
    writeConfig(configDir, { activeProfile: 'default', profiles: { default: { baseUrl: server.baseUrl, apiKey: KEY } } });
    const r = await runCli(['auth', 'logout'], { configDir });
    expect(r.exitCode).toBe(0);
    expect(readConfig(configDir)!.profiles.default).toEqual({ baseUrl: server.baseUrl });
    expect((await runCli(['auth', 'status'], { configDir })).exitCode).toBe(3);
  });

  it("--profile removes only that profile's key", async () => {
    const configDir = tempDir();
    const other = makeKey('aaaa', 'bbbb', 'd');
    writeConfig(configDir, { activeProfile: 'default', profiles: { default: { baseUrl: server.baseUrl, apiKey: KEY }, staging: { baseUrl: 'http://s.example/api/v1', apiKey: other } } });
    const r = await runCli(['auth', 'logout', '--profile', 'staging'], { configDir });
    expect(r.exitCode).toBe(0);
    const cfg = readConfig(configDir)!;
    expect(cfg.profiles.staging).toEqual({ baseUrl: 'http://s.example/api/v1' });
    expect(cfg.profiles.default!.apiKey).toBe(KEY);
    expect(cfg.activeProfile).toBe('default');
  });
});
